import LecternSpeech
import LecternCore
let e = try EspeakEngine.shared()
print(e.sampleRate, e.version)
for text in ["Alice was beginning to get very tired, of 1234 sitting.", "“Oh dear! Oh dear! I shall be late!” 😀 café"] {
let s = try e.synthesize(text, voice: VoiceSettings().resolved())
print(s.samples.count)
let u = Array(text.utf16)
for w in s.words { print(w.sample, String(decoding: u[w.textOffset..<w.textOffset+w.textLength], as: UTF16.self)) }
var first = 0; while first < s.samples.count && abs(Int(s.samples[first])) < 200 { first += 1 }
var last = s.samples.count-1; while last > 0 && abs(Int(s.samples[last])) < 200 { last -= 1 }
print("first loud", first, "last loud", last)
}
