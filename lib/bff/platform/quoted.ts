// The BFF's messages quote what a person sent the same way the pages do: one definition (lib/format/quoted.ts).
export { quoted } from "@/lib/format/quoted";
