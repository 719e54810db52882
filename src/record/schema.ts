// The wire contract as a zod schema: what every record revimport sends must satisfy. The hot path builds
// records with hand-written checks (validate.ts and its checks/, per row, for speed); tests hold those
// records to this schema.
import { z } from 'zod';

const text = z.string().min(1).max(1000);

export const conversionRecordSchema = z
  .object({
    conversionCurrency: z.string().regex(/^[A-Z]{3}$/),
    conversionValue: z.number().finite(),
    conversionDatetime: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    conversionTimezone: z.string().min(1),
    serviceId: text.optional(),
    conversionId: text.optional(),
    conversionName: text.optional(),
    conversionEmail: z.string().email().optional(),
  })
  .strict()
  .refine((r) => r.serviceId !== undefined || r.conversionEmail !== undefined, {
    message: 'a record needs a serviceId or a conversionEmail',
  });
