import { createContext, useContext } from "react";

// The CSP nonce of the answer being rendered (server/security-headers.ts): the inline scripts
// Remix and the root write carry it. Empty in the browser, where it is not needed any more.
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
