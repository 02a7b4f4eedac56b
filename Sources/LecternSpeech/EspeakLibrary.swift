import Foundation
internal import CEspeakNG

/// libespeak-ng loaded at run time (`dlopen`), so that it can be unloaded and loaded again.
///
/// libespeak-ng carries state from one synthesis to the next that no call of its API resets:
/// static variables inside its wave generator (the pitch flutter index, the automatic gain, the
/// cycle counters), the clause state of its translator. The same sentence spoken after another
/// comes out a few samples longer or shorter and with other samples. Unloading the library
/// (after `espeak_Terminate`, which frees what it allocated) and loading it again returns every
/// one of those variables to its initial value; it costs a few milliseconds (reading the phoneme
/// data again), so ``EspeakEngine`` does it once per chunk, which makes a chunk's audio a
/// function of its content alone. The library is therefore not linked: nothing else may hold it
/// loaded, or `dlclose` would not unload it.
final class EspeakLibrary {
    typealias Initialize = @convention(c) (espeak_AUDIO_OUTPUT, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    typealias Info = @convention(c) (UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafePointer<CChar>?
    typealias SetSynthCallback = @convention(c) (
        (@convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32)?) -> Void
    typealias SetParameter = @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ERROR
    typealias Synth = @convention(c) (UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32,
                                      UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> espeak_ERROR
    typealias Status = @convention(c) () -> espeak_ERROR
    typealias ListVoices = @convention(c) (UnsafeMutablePointer<espeak_VOICE>?) -> UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>?
    typealias SetVoiceByName = @convention(c) (UnsafePointer<CChar>?) -> espeak_ERROR
    typealias SetVoiceByProperties = @convention(c) (UnsafeMutablePointer<espeak_VOICE>?) -> espeak_ERROR
    typealias TextToPhonemes = @convention(c) (UnsafeMutablePointer<UnsafeRawPointer?>?, Int32, Int32) -> UnsafePointer<CChar>?

    /// The shared object's name (Debian's libespeak-ng1).
    static let soname = "libespeak-ng.so.1"

    private let handle: UnsafeMutableRawPointer
    let initialize: Initialize
    let info: Info
    let setSynthCallback: SetSynthCallback
    let setParameter: SetParameter
    let synth: Synth
    let synchronize: Status
    let terminate: Status
    let listVoices: ListVoices
    let setVoiceByName: SetVoiceByName
    let setVoiceByProperties: SetVoiceByProperties
    let textToPhonemes: TextToPhonemes

    /// Loads the library (not yet initialised).
    ///
    /// - throws: ``SpeechError`` naming the library and the loader's reason.
    init() throws {
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw SpeechError("cannot load \(Self.soname): \(reason) (install the libespeak-ng1 package)")
        }
        self.handle = handle
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(handle, name) else {
                dlclose(handle)
                throw SpeechError("\(Self.soname) has no \(name): an espeak-ng older than 1.49 is installed")
            }
            return unsafeBitCast(address, to: type)
        }
        initialize = try symbol("espeak_Initialize", as: Initialize.self)
        info = try symbol("espeak_Info", as: Info.self)
        setSynthCallback = try symbol("espeak_SetSynthCallback", as: SetSynthCallback.self)
        setParameter = try symbol("espeak_SetParameter", as: SetParameter.self)
        synth = try symbol("espeak_Synth", as: Synth.self)
        synchronize = try symbol("espeak_Synchronize", as: Status.self)
        terminate = try symbol("espeak_Terminate", as: Status.self)
        listVoices = try symbol("espeak_ListVoices", as: ListVoices.self)
        setVoiceByName = try symbol("espeak_SetVoiceByName", as: SetVoiceByName.self)
        setVoiceByProperties = try symbol("espeak_SetVoiceByProperties", as: SetVoiceByProperties.self)
        textToPhonemes = try symbol("espeak_TextToPhonemes", as: TextToPhonemes.self)
    }

    /// Frees what the library allocated and unloads it; the value must not be used afterwards.
    func unload(initialized: Bool) {
        if initialized { _ = terminate() }
        dlclose(handle)
    }
}
