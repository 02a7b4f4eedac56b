// `lectern init` counts the words it would skip with `WordTokenizer`, which lives in LecternText;
// re-exported here so every command sees the tokeniser as it sees LecternCore.
@_exported import LecternText
