import Foundation
import SkillParser
import ZIPFoundation

/// Reads a zip entry or a file without trusting its declared size: reading stops at a limit
/// and at the size the entry declares, whatever the bytes turn out to hold.
enum BoundedRead {
    private struct Stop: Error {}

    /// The first `limit` bytes of `entry`.
    /// - Throws: ``PackagingError/corruptArchive(_:_:)`` when the entry inflates past the size
    ///   its header declares (1,000 bytes declared, gigabytes inflated).
    static func entry(_ entry: ZIPFoundation.Entry, of archive: Archive, limit: Int, display: String) throws -> Data? {
        var data = Data()
        let declared = Int64(clamping: entry.uncompressedSize)
        var inflated: Int64 = 0
        do {
            _ = try archive.extract(entry, skipCRC32: true) { chunk in
                inflated += Int64(chunk.count)
                if inflated > declared {
                    throw PackagingError.corruptArchive(
                        display, "'\(Echo.bounded(entry.path))' holds more bytes than it declares (\(declared))")
                }
                data.append(chunk.prefix(limit - data.count))
                if data.count >= limit { throw Stop() }
            }
        } catch is Stop {
            return data
        } catch let error as PackagingError {
            throw error
        } catch {
            return nil
        }
        return data
    }

    /// The first `limit` bytes of the file at `url`, or `nil` when it cannot be read.
    static func file(_ url: URL, limit: Int) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: limit)) ?? Data()
    }
}
