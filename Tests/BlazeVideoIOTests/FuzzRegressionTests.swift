import BlazeVideoIO
import Foundation
import Testing

/// Inputs found by `fuzz-video` (Tests/Fuzz; Documentation/Reliability.md), kept as regression tests.
@Suite("Video fuzz findings")
struct FuzzRegressionTests {
    /// Finding 4: an MP4 with an H.264 track declaring a 28783x29488 picture, mutated by the fuzzer, during whose
    /// run ASan found the heap corrupted (libswscale writing past the reader's rows, before the conversion went
    /// through a padded buffer). Alone it reproduces nothing; it must end in frames or a typed error.
    static let finding4 = Data(base64Encoded: [
        "AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMQwAAAAAAAAIZnJlZQAABZNtZGF0AAACrgYF//+q3EXpvebZSLeWLNgg2SPu73gy",
        "NjQgLSBjb3JlIDE2NCByMzA5NSBiYWVlNDAwIC0gSC4wNjQvTVBFRy00IEFWQyBjb2RlYyAtIENvcHlsZWZ0IDIwMDMtMjAyMiAt",
        "IGh0dHA6Ly93d3cudmlkZW9sYW4ub3JnL3gyNjQuaHRtbCAtIG9wdGlvbnM6IGNhYmFjPTEgcmVmPTMgZGWlk29jaz0xOjA6MCBh",
        "bmFseXNlPTB4MzoweDExMyBtZT1oZXggc3VibWU9NyBwc3k9MSBwc3lfcmQ9MS4wMDowLjAwIG1peGVkX3JlZj0xIG1lX3Jhbmdl",
        "PTE2IGNocm9tYV9tZT0xIHRyZWxsaXM9MSA4eDhkY3Q9MSBjcW09MCBkZWFkem9uZT0yMSwxMSBmYXN0X3Bza2lwPTEgY2hyb21h",
        "X3FwX29mZnNldD0tMiB0aHJlYWRzw84gbG9va2loZWFkX3RocmVhZHM9MSBzbGljZWRfdGhyZWFkcz0wIG5yPTAgZGVjaW1hdGU9",
        "MSBpbnRlcmxhY2VkPTAgYmx1cmF5X2NvbXBhdD0wIGNvbnN0cmFpbmVkX2ludHJhPTAgYmZyYW1lcz0zIGJfcHlyYW1pZD0yIGJf",
        "YWRhcHQ9MSBiX2JpYXM9MCBkaXJlY3Q9MSB3ZWlnaHRiPTEgb3Blbl9nb3A9MCB3ZWlnaHRwPTIga2V5aW50PTI1MCBrZXlpbnRf",
        "bWluPTEwIHNjZW5lY3V0PTQwIGludHJhX3JlZnJlc2g9MCByY19sb29rYWhlYWQ9NDAgcmM9Y3JmIG1idHJlZT0xIGNyZj0yMy4w",
        "IHFjb21wPTAuNjAgcXBtaW49MCBxcG1heD02OSBxcHN0ZXA9NCBpcF9yYXRpbz0xLjQwIGFxPTE6MS4wMACAAAACTWWIhABX05bK",
        "QtXb/8ItxFJbToumobFa5wqJJ46sy6Jc8btO7AZTOkZ0uO5rqtUvQZx0M9LnUFLKZ1C7uGGOvWEIVKQQCv8nW4tqdbAJQ/znaWEQ",
        "Z1ygQDuQ18OeMpdtLsfcncDJ93PJTyZHyP2ydVlJ6C4436egHT9+EXSPohlwOzA6Aj1Sr2iQaK1WzJFVL2GmqNmYsq7jOAztbwp3",
        "3TPhq9XAEZBaLJCz9Upn4o1sxUr2+KKptf1pCTh5V2sZ2iD6Qn2BBu1F/QpT23PiUMZbKBLmkIMWHFUXZxnduMO/TW9Yb+YM2UJS",
        "yJGfFEycfgxwhtbHLDZzBg4NKOtTPXuNTSwYYlrbBah+lUQHFFyhAMTTl0oR5HJ2GkGYeo8NrSwNbuBjQw2P/ZkFAO6fc4Chy8H8",
        "tcnrRwxk9D6+XDggxJhThWxAzF5wK51yyfgaZLgpunzB3DskDHYQf9BREoHqseLEmPMt646AjL2ddHQ22Nx3uCilCIKfxdPSa1ly",
        "ucZOqdyIadh0oLTW2+VlDahfrAJYd28fK8CnuSZNjZThgx758Ec3sSdZwctpvJEymvO99WgYvVRupQpukyCl61VijO6Dt4nBu80M",
        "zDk5XkLG7V2JXmHVz8UEZrm9FKDHsR8o/ErZcrQ7yUEWpck2f1J3TLjsLC/DuFKu3khxkiV+6zAFkicY7aMhFlSbhcm2Rux4b6Dr",
        "jiNH+vxrPlGrF74pJllcOiP4LP9em8UaFpGQQyShKEv2j5Tz906Fr1ElrHd0r1Abi9DrrqLmt8EAAABsQZojbEJfJ7oJF/xo5MMT",
        "rJBh1HeHwkVI5P1y7iGZVU8s7Qk6V3VE3gsnySKdPwdKFyZCU+ua3XcYyBSuJ3pgODatQgrHCLEAGJWwrke3jGledbJLzcP1SFpE",
        "G6bC5oD1lu1N0y9r6GW60gWHAAAACEGeQXiEP2tBAAAACAGeYmpCX3NAAAADYm1vb3YAAABsbXZoZAAAAAAAAAAAAAAAAAAAA+gA",
        "AAGQAAEAAAEAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAP0AAAAAAQAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "AAAAAAAAAAIAAAKMdHJhawAAAFx0a2hkAAAAAwAAAAAAAAAAAAAAAQAAAAAAAAGQAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAA",
        "AAAAAAAAAQAAAAAAAAAAAAAAAAAAQAAAAABAAAAAMAAAAAAAJGVkdHMAAAAcZWxzdAAAAAAAAAABAAABkAAACAAAAQAAAAACBG1k",
        "aWEAAAAgbWRoZAAAAAAAAAAAAAAAAAAAKAAAABAAVcQAAAAAAC1oZGxyAAAAAAAAAAB2aWRlAAAAAAAAAAAAAAAAVmlkZW9IYW5k",
        "bGVyAAAAAa9taW5mAAAAFHZtaGQAAAABAAAAAAAAAAAAAAAkZGluZgAAABxkcmVmAAAAAAAAAAEAAAAMdXJsIAAAAAEAAAFvc3Ri",
        "bAAAAL9zdHNkAAAAAAAAAAEAAACvYXZjMQAAAAAAAAABAAAAAAAAZHN0X3ZfY2hyX3BvczAASAAAAEgAAAAAAAAAARVMYXZjNTku",
        "MzcuMTAwAAAAAAAEAAAFAwAAAHAAAAAMAAAADAAAABRzbWV0YQAAAAAAAAAhaGRscgAAAAAAAAAAbWRpcmFwcGwAAAAAAAAAAAAA",
        "AAAtaWxzdAAAACWpdG9vAAAAHWRhdGEAAAABAAAAAExhdmY1OS4yNy4xMDA=",
    ].joined())!

    @Test("finding 4 ends in a file error or in frames whose buffers match their size")
    func finding4() {
        do {
            let reader = try VideoReader(data: Array(Self.finding4))
            while let frame = try reader.nextFrame() {
                #expect(frame.image.pixels.count == frame.image.width * frame.image.height * 3)
            }
        } catch {
            // A file's error, not the shim's "internal error" (an invalid argument between Swift and C).
            if case .invalidArgument = error { Issue.record("\(error)") }
        }
    }
}
