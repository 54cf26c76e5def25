// The AI cape creator: which image maker it uses, and a cape made from a prompt (every request logged for moderators).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { aiPromptBodySchema, aiProviderSchema } from '../../../src/lib/schemas/creators.ts';
import { checkAiPrompt, cleanPrompt, creatorMessages } from '../../../src/lib/creator-rules.ts';
import { requireUser } from '../../auth/plugin.ts';
import { answerMade, creationImageResponses } from './shared.ts';
import { OUTSIDE_SERVICE_FAILED_STATUS } from '../../../src/lib/outside-service.ts';
import { HttpError } from '../../http/errors.ts';
import { errorResponses, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { perUserRateLimit } from '../../http/user-rate-limit.ts';
import { AiImageError, createAiImageProvider } from '../../integrations/ai-images.ts';
import type { AppContext } from '../../operations/app-context.ts';

/** Registers GET and POST /api/gallery/ai-cape-creator. */
export async function aiCreatorRoutes(instance: FastifyInstance, options: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db, creations } = options;
  const settings = options.config.creators;
  const aiProvider = createAiImageProvider({ ...settings.ai, allowPrivateAddresses: settings.allowPrivateAddresses });

  app.get(
    '/api/gallery/ai-cape-creator',
    {
      config: { auth: 'session' },
      schema: {
        summary: 'Which image maker the AI cape creator uses',
        response: { 200: aiProviderSchema, ...errorResponses },
      },
    },
    async (request) => {
      await requireUser(request);
      return { name: aiProvider.name, builtIn: aiProvider.builtIn };
    },
  );

  app.post(
    '/api/gallery/ai-cape-creator',
    {
      config: {
        auth: 'session',
        rateLimit: perUserRateLimit('ai-cape', settings.aiPromptsPerHour, 60 * 60_000, creatorMessages.tooManyPrompts),
      },
      schema: {
        summary: 'Make a cape from a prompt (at most 50 characters)',
        body: aiPromptBodySchema,
        response: creationImageResponses,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const prompt = cleanPrompt(request.body.prompt).trim();
      const problem = checkAiPrompt(prompt);
      if (problem) throw new HttpError(422, problem, { prompt: [problem] });
      // Every request is logged for moderators, with the texture it made (none when it failed).
      const log = (textureHash: string | null) =>
        db
          .insertInto('ai_cape_logs')
          .values({ created_at: Date.now(), user_uuid: user.uuid, prompt, texture_hash: textureHash })
          .execute();
      const key = `ai:${createHash('sha256').update(`${aiProvider.name}\n${prompt}`).digest('hex')}`;
      const make = async () => {
        try {
          const made = await creations.makeByKey(
            key,
            async () => ({ generator: 'prompt' as const, input: await aiProvider.generate(prompt) }),
            user.uuid,
          );
          await log('refusal' in made ? null : made.creation.hash);
          return made;
        } catch (error) {
          await log(null);
          if (error instanceof AiImageError) {
            request.log.warn({ detail: error.detail }, 'the AI image service failed');
            throw new HttpError(OUTSIDE_SERVICE_FAILED_STATUS, error.message);
          }
          throw error;
        }
      };
      return answerMade(options, request, reply, make);
    },
  );
}
