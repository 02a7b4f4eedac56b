/// Something that takes a stream of 16-bit mono PCM and makes a file of it: an encoder of a
/// format made from the book's PCM (``M4BWriter``, ``OpusWriter``).
public protocol PCMSink: AnyObject {
    /// Takes the next samples.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws
    /// Ends the stream: the file is complete and durable.
    func finish() throws
}
