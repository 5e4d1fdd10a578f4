// What the renderer and the loopback web host agree on besides the contract itself.

/** The header that carries this run's access token on every API request to the web host. */
export const webHostTokenHeader = 'x-sift-token';
