// The players the e2e game services stand-in knows: one with a skin (head capes) and one with an OptiFine cape.
import sharp from 'sharp';
import type { StandInPlayer } from '../game-services.ts';

/** A player with a skin whose face is orange. */
export const SKIN_PLAYER = { name: 'FaceOwner', uuid: '5f1e0c2a9b7d4e3f8a6c1b2d3e4f5a6b' };
/** A player with a green OptiFine cape. */
export const OPTIFINE_PLAYER = { name: 'CapeOwner', uuid: '6a2f1d3b0c8e4f5a9b7d2c3e4f5a6b7c' };

/** A PNG of one colour. */
function solid(width: number, height: number, colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** The stand-in's players with their files. */
export async function e2eGamePlayers(): Promise<StandInPlayer[]> {
  return [
    { ...SKIN_PLAYER, skin: await solid(64, 64, { r: 230, g: 140, b: 40 }) },
    { ...OPTIFINE_PLAYER, optifineCape: await solid(46, 22, { r: 20, g: 180, b: 60 }) },
  ];
}
