// The tools' view of text-versus-binary sniffing, which lives in src/text/ because the CLI checks
// piped stdin the same way.

export { SNIFF_BYTES, type ImageMediaType, imageMediaType, isBinary } from "../text/binary.ts";
