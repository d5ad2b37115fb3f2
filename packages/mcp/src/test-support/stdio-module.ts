/** Test support: the module the stdio tests serve with `mtpx-mcp`. */
import { testServer } from './server';

export default testServer();
