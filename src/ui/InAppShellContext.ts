import { createContext } from 'react';

/** True under the signed-in app shell: full-page layouts (errors) then render inside it compactly. */
export const InAppShellContext = createContext(false);
