/** Test support: the module the stdio tests serve with `mtpx-mcp`. */
import { testServer } from './test-server';

export default testServer();
