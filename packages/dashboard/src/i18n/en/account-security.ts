import { plural } from '../plural.js';

/** How a session signed in, in words; a later method unknown here shows as the API names it. */
const SIGN_IN_METHODS: Readonly<Record<string, string>> = {
  password: 'with a password',
  passkey: 'with a passkey',
  recovery: 'with a recovery code',
};

/** The sign-in and security page: password, sessions, passkeys, the authenticator app, recovery codes. */
export const accountSecurity = {
  'account.security.title': 'Sign-in and security',
  'account.security.recovered':
    'You recovered your account. Set up an authenticator app or a passkey now: until you do, the rest of the dashboard stays locked.',

  // The password.
  'account.password.title': 'Password',
  'account.password.current': 'Current password',
  'account.password.currentHint': 'Leave empty if your account has no password yet (passkeys only).',
  'account.password.new': 'New password',
  'account.password.newHint': '12 to 128 characters.',
  'account.password.submit': 'Change password',
  'account.password.changed': (p: { revoked: number }) =>
    `Password changed. ${plural('en', p.revoked, { one: '# other session was', other: '# other sessions were' })} signed out.`,

  // Sessions.
  'account.sessions.title': 'Where you are signed in',
  'account.sessions.caption': 'Sessions',
  'account.sessions.device': 'Device',
  'account.sessions.address': 'Address',
  'account.sessions.signedIn': 'Signed in',
  'account.sessions.lastActive': 'Last active',
  'account.sessions.action': 'Action',
  'account.sessions.unknownBrowser': 'A browser or client',
  'account.sessions.browserOn': (p: { browser: string; system: string }) => `${p.browser} on ${p.system}`,
  'account.sessions.deviceMethod': (p: { device: string; method: string }) =>
    `${p.device} (${SIGN_IN_METHODS[p.method] ?? p.method})`,
  'account.sessions.current': ' · this session',
  'account.sessions.end': 'End session',
  'account.sessions.endNamed': (p: { device: string; ip: string; signedIn: string }) =>
    `End session: ${p.device} at ${p.ip}, signed in ${p.signedIn}`,
  'account.sessions.endYes': 'Yes, end this session',
  'account.sessions.endWarning': 'That browser or device is signed out at once and has to sign in again.',
  'account.sessions.endOthers': 'Sign out every other session',
  'account.sessions.signedOutOne': 'That session is signed out.',
  'account.sessions.signedOutOthers': (p: { revoked: number }) =>
    `${plural('en', p.revoked, { one: '# other session was', other: '# other sessions were' })} signed out.`,

  // Passkeys.
  'account.passkeys.title': 'Passkeys',
  'account.passkeys.intro':
    "A passkey signs you in with your device's screen lock or a security key, with no password to type or steal.",
  'account.passkeys.none': 'You have no passkey yet.',
  'account.passkeys.list': 'Your passkeys',
  'account.passkeys.facts': (p: { added: string; lastUsed: string }) =>
    ` · added ${p.added} · last used ${p.lastUsed}`,
  'account.passkeys.never': 'never',
  'account.passkeys.rename': 'Rename',
  'account.passkeys.renameNamed': (p: { name: string }) => `Rename ${p.name}`,
  'account.passkeys.newName': 'New name',
  'account.passkeys.saveName': 'Save name',
  'account.passkeys.renamed': (p: { name: string }) => `Passkey renamed to ${p.name}.`,
  'account.passkeys.delete': 'Delete',
  'account.passkeys.deleteNamed': (p: { name: string }) => `Delete ${p.name}`,
  'account.passkeys.deleteYes': (p: { name: string }) => `Yes, delete ${p.name}`,
  'account.passkeys.deleteWarning':
    'It no longer signs you in; to use that device again, add it as a new passkey.',
  'account.passkeys.deleted': (p: { name: string }) =>
    `Passkey ${p.name} removed: it no longer signs you in.`,
  'account.passkeys.added': (p: { name: string }) => `Passkey ${p.name} added.`,
  'account.passkeys.name': 'Name of the passkey',
  'account.passkeys.nameHint': 'To tell it apart later, for example Work laptop.',
  'account.passkeys.waiting': 'Waiting for your device…',
  'account.passkeys.add': 'Add a passkey',
  'account.passkeys.unsupported': 'This browser cannot create passkeys. Update it, or use another browser.',

  // The authenticator app (TOTP).
  'account.totp.title': 'Authenticator app',
  'account.totp.isOn':
    'Your authenticator app is on: signing in with your password asks for its code. Turn it off only if you have another way to sign in, such as a passkey.',
  'account.totp.turnedOn':
    'Your authenticator app is on. Signing in with your password now asks for its code.',
  'account.totp.turnedOnNotice': 'Authenticator app turned on.',
  'account.totp.intro':
    'Use an app such as Aegis, 1Password or Google Authenticator for a code at each password sign-in.',
  'account.totp.setUp': 'Set up an authenticator app',
  'account.totp.scan': 'Scan this code with your authenticator app:',
  'account.totp.qr': 'QR code for your authenticator app',
  'account.totp.typeKey': 'Or type this key into the app:',
  'account.totp.copyKey': 'Copy the key',
  'account.totp.enterCode': 'Enter the 6-digit code the app now shows:',
  'account.totp.code': 'Code from the app',
  'account.totp.turnOn': 'Turn on',
  'account.totp.turnedOff': 'The authenticator app is off.',
  'account.totp.turnOffTitle': 'Turn off the authenticator app',
  'account.totp.currentCode': 'Current code',
  'account.totp.turnOff': 'Turn off',

  // Recovery codes.
  'account.recoveryCodes.title': 'Recovery codes',
  'account.recoveryCodes.remaining': (p: { count: number }) =>
    plural('en', p.count, {
      one: 'You have # unused recovery code.',
      other: 'You have # unused recovery codes.',
    }),
  'account.recoveryCodes.replace': 'Make new recovery codes',
  'account.recoveryCodes.replaced': 'New recovery codes made: the old ones no longer work.',
  'account.recoveryCodes.shownTitle': 'Your recovery codes',
  'account.recoveryCodes.shownAdvice':
    'Keep these somewhere safe, apart from your authenticator. Each works once to recover your account if you lose your second factor. They are shown only now.',
  'account.recoveryCodes.list': 'Recovery codes',
  'account.recoveryCodes.copy': 'Copy the recovery codes',
} as const;
