// The software passkey lives in @svc/testing, which the dashboard's component tests use too.
export * from '@svc/testing/software-authenticator';
