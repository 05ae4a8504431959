import { toIso } from '../../../core/time.js';
import type { SmtpSettings } from '../../db/schema.js';

/** The SMTP configuration as the API shows it: never the password. */
export const presentSmtp = (s: SmtpSettings) => ({
  host: s.host,
  port: s.port,
  secure: s.secure === 1,
  user: s.username,
  fromName: s.from_name,
  fromEmail: s.from_email,
  updatedAt: toIso(s.updated_at),
});
