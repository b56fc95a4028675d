import Testing
@testable import ChimeCore

/// Track files for replayed locations: GPX, NMEA 0183 and CSV, and their errors (file:line).
@Suite("Track files: GPX, NMEA and CSV read into fixes; bad input named by file and line")
struct TrackFileTests {
    static func utcMs(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, ms: Int64 = 0) -> Int64 {
        LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s).localSeconds * 1000 + ms
    }

    func parse(
        _ text: String, _ format: TrackFile.Format? = nil, file: String = "track",
        defaultDate: CivilDate? = nil
    ) throws -> [LocationFix] {
        try TrackFile.parse(Array(text.utf8), format: format, file: file, defaultDate: defaultDate)
    }

    /// The error text for input that must be refused; records an issue when it parses.
    func failure(
        _ text: String, _ format: TrackFile.Format? = nil, file: String = "track",
        defaultDate: CivilDate? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        do {
            let fixes = try TrackFile.parse(Array(text.utf8), format: format, file: file, defaultDate: defaultDate)
            Issue.record("parsed into \(fixes.count) fixes", sourceLocation: sourceLocation)
            return ""
        } catch {
            return error.description
        }
    }

    static func gpx(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><trkseg>
        \(body)
        </trkseg></trk>
        </gpx>

        """
    }

    /// `$` + body + `*` + the XOR checksum.
    static func nmea(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(sum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" : "")\(hex)"
    }

    // MARK: - GPX

    @Test func gpxTrackPointsWithHdopAndFractionalSeconds() throws {
        let fixes = try parse(
            Self.gpx(
                """
                <trkpt lat="52.53080" lon="13.38470"><ele>40</ele><time>2026-11-23T07:30:00Z</time><hdop>0.8</hdop></trkpt>
                <trkpt lat="52.53071" lon="13.38502"><time>2026-11-23T07:30:10.250Z</time></trkpt>
                <trkpt lat="-33.8688" lon="-151.2093"><time>2026-11-23T07:30:20.5Z</time><hdop>2</hdop></trkpt>
                """), .gpx)
        #expect(
            fixes.map(\.timestampMilliseconds) == [
                Self.utcMs(2026, 11, 23, 7, 30, 0), Self.utcMs(2026, 11, 23, 7, 30, 10, ms: 250),
                Self.utcMs(2026, 11, 23, 7, 30, 20, ms: 500)
            ])
        #expect(
            fixes.map(\.coordinate) == [
                Coordinate(latitude: 52.5308, longitude: 13.3847),
                Coordinate(latitude: 52.53071, longitude: 13.38502),
                Coordinate(latitude: -33.8688, longitude: -151.2093)
            ])
        #expect(fixes.map(\.horizontalAccuracy) == [4, 0, 10])  // hdop × 5 m; none → 0
    }

    @Test func gpxToleratesPrefixesQuotesAttributeOrderCommentsAndCDATA() throws {
        let text = """
            <?xml version='1.0'?>
            <!DOCTYPE gpx>
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
              <!-- <trkpt lat="1" lon="1"><time>2026-01-01T00:00:00Z</time></trkpt> -->
              <g:metadata><g:desc><![CDATA[ <trkpt lat="2" lon="2"> is not a point ]]></g:desc></g:metadata>
              <g:trk><g:trkseg>
                <g:trkpt
                    lon = '13.40200'
                    lat="52.52500" >
                  <g:time>
                    <![CDATA[2026-11-23T07:41:00Z]]>
                  </g:time>
                  <g:HDOP>1.5</g:HDOP>
                </g:trkpt>
                <TRKPT lat="52.5251" lon="13.4021"><TIME>20261123T074110Z</TIME></TRKPT>
              </g:trkseg></g:trk>
            </g:gpx>
            """
        let fixes = try parse(text, file: "odd.gpx")
        #expect(fixes.count == 2)
        #expect(
            fixes.first
                == LocationFix(
                    coordinate: Coordinate(latitude: 52.525, longitude: 13.402), horizontalAccuracy: 7.5,
                    timestampMilliseconds: Self.utcMs(2026, 11, 23, 7, 41, 0)))
        #expect(fixes.last?.timestampMilliseconds == Self.utcMs(2026, 11, 23, 7, 41, 10))
    }

    @Test func gpxTimesWithOffsetsAreConvertedToUTC() throws {
        let fixes = try parse(
            Self.gpx(
                """
                <trkpt lat="52.5" lon="13.4"><time>2026-11-23T08:30:00+01:00</time></trkpt>
                <trkpt lat="52.5" lon="13.4"><time>2026-11-23T02:30:05.125-05:00</time></trkpt>
                <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:10</time></trkpt>
                <trkpt lat="52.5" lon="13.4"><time>2026-11-23T09:00:15+0130</time></trkpt>
                """), .gpx)
        #expect(
            fixes.map(\.timestampMilliseconds) == [
                Self.utcMs(2026, 11, 23, 7, 30, 0), Self.utcMs(2026, 11, 23, 7, 30, 5, ms: 125),
                Self.utcMs(2026, 11, 23, 7, 30, 10), Self.utcMs(2026, 11, 23, 7, 30, 15)
            ])
    }

    @Test func gpx10WaypointsAndRoutePointsOnlyWithATime() throws {
        let text = """
            <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0">
            <wpt lat="52.5" lon="13.5"><name>planned, no time</name></wpt>
            <wpt lat="52.6" lon="13.6"><time>2026-11-23T07:30:05Z</time></wpt>
            <rte><rtept lat="1" lon="1"/><rtept lat="52.7" lon="13.7"><time>2026-11-23T07:30:20Z</time></rtept></rte>
            <trk><trkseg>
            <trkpt lat="52.1" lon="13.1"><time>2026-11-23T07:30:00Z</time></trkpt>
            <trkpt lat="52.2" lon="13.2"><time>2026-11-23T07:30:10Z</time></trkpt>
            </trkseg></trk>
            </gpx>
            """
        let fixes = try parse(text, .gpx)
        // The waypoint is merged by time; the route point without a time is not used.
        #expect(fixes.map(\.latitude) == [52.1, 52.6, 52.2, 52.7])
    }

    @Test func gpxWithWindowsLineEndingsNamesTheRightLine() {
        let text = Self.gpx(
            """
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:00Z</time></trkpt>
            <trkpt lat="95.2" lon="13.4"><time>2026-11-23T07:30:10Z</time></trkpt>
            """
        ).replacingOccurrences(of: "\n", with: "\r\n")
        #expect(failure(text, file: "commute.gpx") == "commute.gpx:5: invalid latitude \"95.2\" (must be -90…90)")
    }

    @Test func gpxInvalidCoordinates() {
        let lon = failure(Self.gpx(#"<trkpt lat="52.5" lon="abc"><time>2026-11-23T07:30:00Z</time></trkpt>"#), file: "a.gpx")
        #expect(lon == #"a.gpx:4: invalid longitude "abc" (must be -180…180)"#)
        let nan = failure(Self.gpx(#"<trkpt lat="nan" lon="1"><time>2026-11-23T07:30:00Z</time></trkpt>"#), file: "a.gpx")
        #expect(nan == #"a.gpx:4: invalid latitude "nan" (must be -90…90)"#)
        let missing = failure(Self.gpx(#"<trkpt lon="1"><time>2026-11-23T07:30:00Z</time></trkpt>"#), file: "a.gpx")
        #expect(missing == "a.gpx:4: <trkpt> without a lat attribute")
        let hdop = failure(Self.gpx(#"<trkpt lat="1" lon="1"><time>2026-11-23T07:30:00Z</time><hdop>-1</hdop></trkpt>"#), file: "a.gpx")
        #expect(hdop == #"a.gpx:4: invalid <hdop> "-1" (must be a number ≥ 0)"#)
    }

    @Test func gpxTrackPointWithoutTimeOrWithABadTime() {
        let none = failure(
            Self.gpx(
                """
                <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:00Z</time></trkpt>
                <trkpt lat="52.5" lon="13.4"><ele>30</ele></trkpt>
                """), file: "c.gpx")
        #expect(none == "c.gpx:5: <trkpt> has no <time>: a replay needs the time of every track point")
        let bad = failure(
            Self.gpx(
                """
                <trkpt lat="52.5" lon="13.4">
                  <time>2026-13-23T07:30:00Z</time>
                </trkpt>
                """), file: "c.gpx")
        #expect(bad.hasPrefix(#"c.gpx:5: invalid <time> "2026-13-23T07:30:00Z""#))
        let dateOnly = failure(Self.gpx(#"<trkpt lat="1" lon="1"><time>2026-11-23</time></trkpt>"#), file: "c.gpx")
        #expect(dateOnly.hasPrefix(#"c.gpx:4: invalid <time> "2026-11-23""#))
        let relative = failure(Self.gpx(#"<trkpt lat="1" lon="1"><time>now</time></trkpt>"#), file: "c.gpx")
        #expect(relative.hasPrefix(#"c.gpx:4: invalid <time> "now""#))
    }

    @Test func gpxTimeGoingBackwardsNamesTheLine() {
        let text = Self.gpx(
            """
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:00Z</time></trkpt>
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:10Z</time></trkpt>
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:10Z</time></trkpt>
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:09.5Z</time></trkpt>
            """)
        #expect(
            failure(text, file: "b.gpx")
                == "b.gpx:7: time goes backwards: 2026-11-23T07:30:09.500Z comes after 2026-11-23T07:30:10Z (line 6)")
    }

    @Test func truncatedGPXIsAnErrorNamingWhereItEnds() {
        let whole = Self.gpx(
            """
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:00Z</time></trkpt>
            <trkpt lat="52.5" lon="13.4"><time>2026-11-23T07:30:10Z</time></trkpt>
            """)
        #expect(throws: Never.self) { try parse(whole, .gpx) }
        // Cut after the last track point: the file ends inside <trkseg>.
        let afterPoint = String(whole[..<whole.range(of: "</trkseg>")!.lowerBound])
        #expect(failure(afterPoint, file: "t.gpx") == "t.gpx:6: file ends inside <trkseg> opened on line 3 (truncated?)")
        // Cut inside a point, inside a tag, inside an attribute value, inside a comment.
        let inPoint = String(whole[..<whole.range(of: "<time>2026-11-23T07:30:10")!.upperBound])
        #expect(failure(inPoint, file: "t.gpx") == "t.gpx:5: file ends inside <trkpt> opened on line 5 (truncated?)")
        #expect(
            failure(#"<gpx><trk><trkseg><trkpt lat="52.5" lon"#, file: "t.gpx")
                == "t.gpx:1: file ends inside the tag <trkpt lon (truncated?)")
        #expect(
            failure("<gpx>\n<trk><trkseg>\n<trkpt lat=\"52.5", file: "t.gpx")
                == "t.gpx:3: file ends inside the tag <trkpt (truncated?)")
        #expect(failure("<gpx>\n<!-- a comment", file: "t.gpx") == "t.gpx:2: comment never ends (truncated?)")
    }

    @Test func gpxStructureErrors() {
        #expect(failure("<kml><Placemark/></kml>", file: "x.gpx") == "x.gpx:1: not a GPX file: the root element is <kml>, not <gpx>")
        #expect(failure("<gpx>\n<trk><trkseg></trk></gpx>", file: "x.gpx") == "x.gpx:2: </trk> closes <trkseg> opened on line 2")
        #expect(
            failure("<gpx>\n<trk></trk>\n</gpx>", file: "x.gpx")
                == "x.gpx: no position fixes (no <trkpt>, and no <wpt> or <rtept> with a <time>)")
        #expect(
            failure(#"<gpx><trkpt lat="1" lon="1"><trkpt lat="1" lon="1"/></trkpt></gpx>"#, file: "x.gpx")
                == "x.gpx:1: <trkpt> inside <trkpt> opened on line 1")
    }

    // MARK: - NMEA

    /// The sentences NMEA references quote, with their published checksums.
    static let referenceGGA = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    static let referenceRMC = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"

    @Test func nmeaGGAAndRMCForTheSameSecondMakeOneFix() throws {
        let contents = try TrackFile.read(Array((Self.referenceGGA + "\n" + Self.referenceRMC + "\n").utf8), file: "ref.nmea")
        #expect(contents.format == .nmea)
        #expect(contents.skipped.isEmpty)
        let fix = try #require(contents.fixes.count == 1 ? contents.fixes[0] : nil)
        #expect(fix.timestampMilliseconds == Self.utcMs(1994, 3, 23, 12, 35, 19))
        #expect(abs(fix.latitude - (48 + 7.038 / 60)) < 1e-9)
        #expect(abs(fix.longitude - (11 + 31.0 / 60)) < 1e-9)
        #expect(fix.horizontalAccuracy == 0)  // HDOP 0.9 → 0 m
    }

    @Test func nmeaHdopFollowsGeoClue() throws {
        let table: [(Double, Double)] = [
            (0.5, 0), (1, 0), (1.1, 1), (2, 1), (2.5, 3), (5, 3), (7, 50), (10, 50),
            (15, 100), (20, 100), (20.1, 300), (99.9, 300)
        ]
        for (hdop, metres) in table { #expect(TrackFile.nmeaAccuracy(hdop: hdop) == metres, "HDOP \(hdop)") }
        let lines = [
            Self.nmea("GPRMC,080000,A,5231.848,N,01323.082,E,0.0,0.0,231126,,"),
            Self.nmea("GPGGA,080000,5231.848,N,01323.082,E,1,05,7.5,40.0,M,,M,,"),
            Self.nmea("GPGGA,080001,5231.848,N,01323.082,E,1,05,,40.0,M,,M,,")
        ]
        let fixes = try parse(lines.joined(separator: "\n"), .nmea)
        #expect(fixes.map(\.horizontalAccuracy) == [50, 0])
    }

    @Test func nmeaAnyTalkerSouthAndWestOtherSentencesIgnoredAndCRLF() throws {
        let lines = [
            Self.nmea("GNGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"),
            Self.nmea("GNRMC,235959.50,A,3352.128,S,15112.558,W,0.0,0.0,311226,,,A"),
            "garbage without a dollar sign",
            Self.nmea("GLGGA,235959.50,3352.128,S,15112.558,W,2,09,1.6,12.0,M,,M,,"),
            Self.nmea("PGRME,15.0,M,45.0,M,25.0,M")
        ]
        let fixes = try parse(lines.joined(separator: "\r\n") + "\r\n", file: "south.nmea")
        #expect(fixes.count == 1)
        #expect(fixes[0].timestampMilliseconds == Self.utcMs(2026, 12, 31, 23, 59, 59, ms: 500))
        #expect(abs(fixes[0].latitude + (33 + 52.128 / 60)) < 1e-9)
        #expect(abs(fixes[0].longitude + (151 + 12.558 / 60)) < 1e-9)
        #expect(fixes[0].horizontalAccuracy == 1)
    }

    @Test func nmeaBadChecksumIsSkippedAndCounted() throws {
        let corrupted = Self.referenceGGA.replacingOccurrences(of: "4807.038", with: "4807.039")
        let lines = [
            Self.referenceRMC,
            corrupted,
            String(Self.nmea("GPRMC,123520,A,4807.040,N,01131.000,E,022.4,084.4,230394,003.1,W").dropLast(2)) + "zz",
            "$GPRMC,123521,A,4807.041,N,01131.000,E,022.4,084.4,230394,003.1,W"  // no checksum: accepted
        ]
        let contents = try TrackFile.read(Array(lines.joined(separator: "\n").utf8), file: "noisy.nmea")
        #expect(contents.fixes.map(\.timestampMilliseconds) == [Self.utcMs(1994, 3, 23, 12, 35, 19), Self.utcMs(1994, 3, 23, 12, 35, 21)])
        #expect(
            contents.skipped == [
                TrackFile.Skipped(line: 2, reason: "bad checksum *47, computed *46"),
                TrackFile.Skipped(line: 3, reason: "malformed checksum \"*zz\"")
            ])
    }

    @Test func nmeaVoidAndNoFixSentencesAreSkipped() throws {
        let lines = [
            Self.nmea("GPRMC,080000,V,,,,,,,231126,,"),
            Self.nmea("GPGGA,080000,,,,,0,00,99.9,,M,,M,,"),
            Self.nmea("GPRMC,080001,A,5231.848,N,01323.082,E,0.0,0.0,231126,,"),
            Self.nmea("GPGGA,080002,5231.848,N,01323.082,E,0,00,99.9,,M,,M,,")
        ]
        let contents = try TrackFile.read(Array(lines.joined(separator: "\n").utf8), format: .nmea, file: "cold.nmea")
        #expect(contents.fixes.map(\.timestampMilliseconds) == [Self.utcMs(2026, 11, 23, 8, 0, 1)])
        #expect(contents.skipped.map(\.line) == [1, 2, 4])
        #expect(contents.skipped[0].reason == "GPRMC: no fix (status V)")
        #expect(contents.skipped[1].reason == "GPGGA: no fix (quality 0)")
        // Nothing usable at all: the error says why.
        let none = failure(lines[0] + "\n" + lines[1], .nmea, file: "cold.nmea")
        #expect(none == "cold.nmea: no position fixes (no usable GGA or RMC sentence; 2 skipped, the first on line 1: GPRMC: no fix (status V))")
    }

    @Test func ggaOnlyNeedsADefaultDateAndRollsOverMidnight() throws {
        let lines = [
            Self.nmea("GPGGA,235958,5231.848,N,01323.082,E,1,05,1.2,40.0,M,,M,,"),
            Self.nmea("GPGGA,235959,5231.848,N,01323.082,E,1,05,1.2,40.0,M,,M,,"),
            Self.nmea("GPGGA,000000,5231.848,N,01323.082,E,1,05,1.2,40.0,M,,M,,")
        ]
        let text = "# logged by a GGA-only receiver\n" + lines.joined(separator: "\n")
        #expect(
            failure(text, .nmea, file: "gga.nmea")
                == "gga.nmea:2: GGA has no date and the file has no RMC sentence: give a default date for the track")
        let fixes = try parse(text, .nmea, defaultDate: CivilDate(year: 2026, month: 11, day: 30))
        #expect(
            fixes.map(\.timestampMilliseconds) == [
                Self.utcMs(2026, 11, 30, 23, 59, 58), Self.utcMs(2026, 11, 30, 23, 59, 59),
                Self.utcMs(2026, 12, 1, 0, 0, 0)
            ])
    }

    @Test func ggaBeforeTheFirstRMCTakesItsDateAcrossMidnight() throws {
        let lines = [
            Self.nmea("GPGGA,235959,5231.848,N,01323.082,E,1,05,1.2,40.0,M,,M,,"),
            Self.nmea("GPGGA,000000,5231.848,N,01323.082,E,1,05,1.2,40.0,M,,M,,"),
            Self.nmea("GPRMC,000000,A,5231.848,N,01323.082,E,0.0,0.0,010126,,"),
            Self.nmea("GPGGA,000001,5231.900,N,01323.082,E,1,05,1.2,40.0,M,,M,,")
        ]
        // A default date is ignored when the file has RMC dates.
        let fixes = try parse(lines.joined(separator: "\n"), .nmea, defaultDate: CivilDate(year: 2000, month: 1, day: 1))
        #expect(
            fixes.map(\.timestampMilliseconds) == [
                Self.utcMs(2025, 12, 31, 23, 59, 59), Self.utcMs(2026, 1, 1, 0, 0, 0),
                Self.utcMs(2026, 1, 1, 0, 0, 1)
            ])
    }

    @Test func nmeaTimeGoingBackwardsAndInvalidLatitudeNameTheLine() {
        let backwards = [
            Self.nmea("GPRMC,080010,A,5231.848,N,01323.082,E,0.0,0.0,231126,,"),
            Self.nmea("GPRMC,080009,A,5231.848,N,01323.082,E,0.0,0.0,231126,,")
        ]
        #expect(
            failure(backwards.joined(separator: "\n"), .nmea, file: "n.nmea")
                == "n.nmea:2: time goes backwards: 2026-11-23T08:00:09Z comes after 2026-11-23T08:00:10Z (line 1)")
        let tooFarNorth = Self.nmea("GPGGA,080000,9512.000,N,01323.082,E,1,05,1.2,40.0,M,,M,,")
        #expect(
            failure(tooFarNorth, .nmea, file: "n.nmea", defaultDate: CivilDate(year: 2026, month: 1, day: 1))
                == "n.nmea:1: invalid latitude \"9512.000,N\" (must be 0000.0000…9000.0000 N or S)")
        let sixtyMinutes = Self.nmea("GPRMC,080000,A,5231.848,N,01360.000,E,0.0,0.0,231126,,")
        #expect(failure(sixtyMinutes, .nmea, file: "n.nmea").hasPrefix("n.nmea:1: invalid longitude \"01360.000,E\""))
    }

    // MARK: - CSV

    @Test func csvWithoutHeaderInEveryTimeForm() throws {
        let text = """
            # a walk

            2026-11-23T07:30:00Z,52.53080,13.38470,5
            20261123T073010Z, 52.53071 , 13.38502
            1795419020,52.5306,13.3853,
            1795419030.25,52.5305,13.3854,12.5
            "2026-11-23T08:30:40.5+01:00","52.5304","13.3855","3"
            """
        let fixes = try parse(text.replacingOccurrences(of: "\n", with: "\r\n"), file: "walk.csv")
        #expect(
            fixes.map(\.timestampMilliseconds) == [
                Self.utcMs(2026, 11, 23, 7, 30, 0), Self.utcMs(2026, 11, 23, 7, 30, 10),
                Self.utcMs(2026, 11, 23, 7, 30, 20), Self.utcMs(2026, 11, 23, 7, 30, 30, ms: 250),
                Self.utcMs(2026, 11, 23, 7, 30, 40, ms: 500)
            ])
        #expect(fixes.map(\.horizontalAccuracy) == [5, 0, 0, 12.5, 3])
        #expect(fixes[1].coordinate == Coordinate(latitude: 52.53071, longitude: 13.38502))
    }

    @Test func csvHeaderNamesTheColumnsInAnyOrder() throws {
        let fixes = try parse("Latitude,Longitude,Accuracy,Time\n52.5,13.4,8,2026-11-23T07:30:00Z\n", .csv)
        #expect(
            fixes == [
                LocationFix(
                    coordinate: Coordinate(latitude: 52.5, longitude: 13.4), horizontalAccuracy: 8,
                    timestampMilliseconds: Self.utcMs(2026, 11, 23, 7, 30, 0))
            ])
        let plain = try parse("time,lat,lon\n2026-11-23T07:30:00Z,52.5,13.4\n", .csv)
        #expect(plain.count == 1 && plain[0].horizontalAccuracy == 0)
    }

    @Test func csvErrorsNameFileAndLine() {
        #expect(
            failure("time,lat,lon\n2026-11-23T07:30:00Z,52.5\n", file: "w.csv")
                == "w.csv:2: expected 3 fields (time,lat,lon), found 2")
        #expect(
            failure("2026-11-23T07:30:00Z,52.5,13.4,1,2\n", file: "w.csv")
                == "w.csv:1: expected 3 or 4 fields (time,lat,lon,accuracy), found 5")
        #expect(
            failure("2026-11-23T07:30:00Z,52.5,13.4\n2026-11-31T07:30:00Z,52.5,13.4\n", file: "w.csv")
                .hasPrefix(#"w.csv:2: invalid time "2026-11-31T07:30:00Z""#))
        #expect(failure("2026-11-23T07:30:00Z,52.5,13.4,-4\n", file: "w.csv") == #"w.csv:1: invalid accuracy "-4" (must be a number ≥ 0)"#)
        #expect(failure("2026-11-23T07:30:00Z,52.5,200\n", file: "w.csv") == #"w.csv:1: invalid longitude "200" (must be -180…180)"#)
        #expect(failure("when,lat,lon\n", file: "w.csv") == #"w.csv:1: unknown column "when" (use time, lat, lon, accuracy)"#)
        #expect(failure("lat,lon,accuracy\n", file: "w.csv") == "w.csv:1: the header has no time column")
        #expect(
            failure("1795419030,52.5,13.4\n1795419029,52.5,13.4\n", file: "w.csv")
                == "w.csv:2: time goes backwards: 2026-11-23T07:30:29Z comes after 2026-11-23T07:30:30Z (line 1)")
        #expect(failure("# only a comment\n\ntime,lat,lon\n", file: "w.csv") == "w.csv: no position fixes (no data rows)")
    }

    // MARK: - Whole files

    @Test func emptyFilesAreRefused() {
        #expect(failure("", file: "empty.gpx") == "empty.gpx: empty file")
        #expect(failure(" \r\n\n\t", file: "blank.nmea") == "blank.nmea: empty file")
        #expect(failure("\u{FEFF}\n", file: "bom.csv") == "bom.csv: empty file")
    }

    @Test func formatFromTheFileNameThenTheContent() throws {
        #expect(TrackFile.format(forFileName: "/home/me/Commute.GPX") == .gpx)
        #expect(TrackFile.format(forFileName: "log.nmea") == .nmea)
        #expect(TrackFile.format(forFileName: "log.nma") == .nmea)
        #expect(TrackFile.format(forFileName: "walk.csv") == .csv)
        #expect(TrackFile.format(forFileName: "track.txt") == nil)
        #expect(TrackFile.format(forFileName: ".csv") == nil)
        #expect(TrackFile.format(forFileName: "dir.gpx/track") == nil)
        #expect(TrackFile.detectFormat(Array("\u{FEFF}<?xml version=\"1.0\"?><gpx>".utf8)) == .gpx)
        #expect(TrackFile.detectFormat(Array("\r\n\(Self.referenceGGA)\r\n".utf8)) == .nmea)
        #expect(TrackFile.detectFormat(Array("# comment\ntime,lat,lon\n".utf8)) == .csv)
        #expect(TrackFile.detectFormat(Array("hello world\n".utf8)) == nil)
        // The content decides when the name does not say.
        #expect(try parse(Self.referenceRMC, file: "track.log").count == 1)
        #expect(failure("hello world\n", file: "track.log") == "track.log: cannot tell the format: name the file .gpx, .nmea or .csv")
        // An explicit format wins over the name.
        #expect(try parse("1795419030,52.5,13.4\n", .csv, file: "mislabelled.gpx").count == 1)
    }

    @Test func errorDescriptionFollowsTheICSStyle() {
        #expect(
            TrackFileError(file: "commute.gpx", line: 41, "invalid latitude \"95.2\"").description
                == "commute.gpx:41: invalid latitude \"95.2\"")
        #expect(TrackFileError(file: "commute.gpx", line: 0, "empty file").description == "commute.gpx: empty file")
    }
}
