// The release's version: one constant every layer may show (--version, /status, the welcome line).
export const VERSION = "0.1.0";
