// Loudness, levelling and limiting live in LecternDSP (optimised in every build); whoever uses
// LecternAudio sees them as its own.
@_exported import LecternDSP
