// The premium features: what each is called and does. Prices come from the server's settings.

/** A premium feature's key, as payments and the mod API name it. */
export type PremiumItem = 'animated' | 'glint' | 'dinnerbone';

/** The features in the order the premium page lists them. */
export const PREMIUM_ITEMS: PremiumItem[] = ['animated', 'glint', 'dinnerbone'];

/** Each feature's name and what it does, as the premium page says it. */
export const PREMIUM_FEATURES: Record<PremiumItem, { name: string; description: string; toggles: boolean }> = {
  animated: {
    name: 'Animated cape',
    description:
      'Upload an animated GIF as your cape: every player running the mod sees it move, at up to 10 frames a second.',
    toggles: false,
  },
  glint: {
    name: 'Cape glint',
    description:
      'Your cape shimmers with the enchantment glint, like an enchanted item. Turn it on and off whenever you like.',
    toggles: true,
  },
  dinnerbone: {
    name: 'Dinnerbone',
    description: 'Other players see you upside down, the famous Dinnerbone look. Turn it on and off whenever you like.',
    toggles: true,
  },
};

/** Whether a value names a premium feature. */
export function isPremiumItem(value: unknown): value is PremiumItem {
  return typeof value === 'string' && (PREMIUM_ITEMS as string[]).includes(value);
}

/** A price in a currency as the page shows it (`£4.99`). */
export function formatPrice(amount: string, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(Number(amount));
}

/** What the premium page says, and what a checkout call answers, when no way to pay is set up on the site. */
export const PURCHASES_UNAVAILABLE = 'Purchases are not available on this site yet.';
