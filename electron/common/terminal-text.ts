// Text from outside (a mail server's reply, a blocklist's DNS text, a line of an imported file, a key of a
// score-weights file) as Sift prints or stores it: terminal escape sequences (CSI, OSC) and every other
// control character dropped, so no file or server can write to the person's terminal or clipboard.

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const escapeSequence = /\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])/g;
// eslint-disable-next-line no-control-regex -- likewise
const controlCharacter = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export const withoutControls = (text: string) => text.replace(escapeSequence, '').replace(controlCharacter, '');
