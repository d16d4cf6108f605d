export { checkFileConfig } from "../../src/config/load.ts";
