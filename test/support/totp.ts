export { totpCode } from '@svc/testing/totp';
