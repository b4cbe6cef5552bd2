import BlazeSegmentation
import Testing

/// Background names in words, and the mask as a gray picture.
@Suite struct BackgroundFillTests {
    @Test("Keywords, colours and blurs parse; other words are no fill; malformed ones are errors")
    func parsing() throws {
        #expect(try BackgroundFill(parsing: "White") == .color(red: 255, green: 255, blue: 255))
        #expect(try BackgroundFill(parsing: "black") == .color(red: 0, green: 0, blue: 0))
        #expect(try BackgroundFill(parsing: "#1aF0c3") == .color(red: 0x1A, green: 0xF0, blue: 0xC3))
        #expect(try BackgroundFill(parsing: "BLUR") == .blur(radius: nil))
        #expect(try BackgroundFill(parsing: "blur:0") == .blur(radius: 0))
        #expect(try BackgroundFill(parsing: "blur:1000") == .blur(radius: 1000))
        #expect(try BackgroundFill(parsing: "beach.jpg") == nil)
        #expect(try BackgroundFill(parsing: "") == nil)
        for bad in ["#12345", "#1234567", "#12345g", "#", "#-12345"] {
            #expect(throws: BackgroundFill.ParseError.malformedColor(bad)) { try BackgroundFill(parsing: bad) }
        }
        for bad in ["blur:", "blur:-1", "blur:1001", "blur:2.5", "blur:99999999999999999999"] {
            #expect(throws: BackgroundFill.ParseError.malformedBlurRadius(bad)) { try BackgroundFill(parsing: bad) }
        }
    }

    @Test("A blur without a radius takes 2 % of the shorter side, at least 1 pixel")
    func defaultRadius() throws {
        guard case .blur(let radius) = BackgroundFill.blur(radius: nil).background(width: 1000, height: 600) else {
            Issue.record("not a blur"); return
        }
        #expect(radius == 12)
        #expect(BackgroundFill.defaultBlurRadius(width: 10, height: 10) == 1)
        guard case .blur(let given) = BackgroundFill.blur(radius: 7).background(width: 1000, height: 600) else {
            Issue.record("not a blur"); return
        }
        #expect(given == 7)
    }

    @Test("The gray picture clamps, rounds half up and maps NaN to 0; the person share counts values above 0.5")
    func grayscale() {
        let mask = SegmentationMask(width: 3, height: 2, values: [0, 0.5, 1, -1, 2, .nan])
        let image = mask.grayscaleImage()
        #expect(image.width == 3 && image.height == 2 && image.pixelFormat == .gray8)
        #expect(image.pixels == [0, 128, 255, 0, 255, 0])
        #expect(mask.personShare == 2.0 / 6.0)
        #expect(SegmentationMask().personShare == 0)
        #expect(SegmentationMask(width: 2, height: 2, values: [1]).grayscaleImage().width == 0)
    }
}
