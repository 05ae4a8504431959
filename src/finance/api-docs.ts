import type { ApiDocs } from '../core/http/api-docs.js';

/** The finance service's docs pages: a getting-started introduction and who may call what. */
export const financeApiDocs: ApiDocs = {
  intro: `## Getting started

1. First run: \`GET /api/auth/needs-setup\` says whether the service has no user yet; then
   \`POST /api/auth/setup {"email", "password", "fullName", "companyName"}\` creates the SuperAdmin and
   their company account (with \`setupToken\` when \`FINANCE_SETUP_TOKEN\` is set).
2. \`POST /api/auth/login {"email", "password"}\` answers an \`accessToken\` (24 hours) and a
   \`refreshToken\` (30 days, one use: \`POST /api/auth/refresh\` gives a new pair). Send the access token
   as \`Authorization: Bearer <accessToken>\`.
3. A token belongs to one account; \`POST /api/auth/switch-account\` answers tokens for another account
   the user is a member of. Members are *admin* or *agent*; administrators manage members, SMTP
   settings, webhooks and reports.

Every answer is an envelope: \`{"success": true, "data": ..., "message": ...}\`; errors
\`{"success": false, "message": "<sentence>", "error": {"code": "<snake_case>", "details": [...]}}\` with
401, 403, 404 (also for another account's ids), 409, 422 (nothing is changed) and 429 with
\`Retry-After\`. Amounts are decimals with at most 2 places; dates are \`YYYY-MM-DD\` (UTC).`,
  access(config) {
    const access = config.access ?? 'member';
    if (access === 'public') return 'No token: anyone may call it.';
    if (access === 'optional') return 'No token needed; with one, the answer is about its user.';
    if (access === 'admin') return "An administrator's access token (of the token's account).";
    return "Any member's access token (of the token's account).";
  },
};
