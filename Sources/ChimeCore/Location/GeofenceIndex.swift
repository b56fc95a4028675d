/// A grid over latitude/longitude that finds the fences a point may be inside without looking
/// at the others: one dictionary lookup plus the fences of that cell.
///
/// Cells are `cellDegrees` on each side (0.01° ≈ 1.1 km north–south). A fence is listed in every
/// cell its bounding box touches; a fence covering more than ``maximumCellsPerFence`` cells
/// (huge radii, the poles, the antimeridian) goes to a short list checked on every query.
struct GeofenceIndex {
    static let maximumCellsPerFence = 64
    let cellDegrees: Double
    private var cells: [Int64: [Int32]] = [:]
    private(set) var large: Set<Int32> = []

    init(cellDegrees: Double = 0.01) { self.cellDegrees = cellDegrees }

    private func row(_ latitude: Double) -> Int64 { Int64(((latitude + 90) / cellDegrees).rounded(.down)) }
    private func column(_ longitude: Double) -> Int64 { Int64(((longitude + 180) / cellDegrees).rounded(.down)) }
    private static func cellKey(row: Int64, column: Int64) -> Int64 { row &* 1_000_000 &+ column }

    /// The cells of the box around `center` with half-size `metres`; nil when too many.
    private func cellRange(around center: Coordinate, metres: Double) -> (rows: ClosedRange<Int64>, columns: ClosedRange<Int64>)? {
        let dLat = metres / Geodesy.metresPerDegree
        let maxLatitude = min(abs(center.latitude) + dLat, 90)
        let perLon = Geodesy.metresPerDegreeOfLongitude(atLatitude: maxLatitude)
        guard perLon > 1, maxLatitude < 89 else { return nil }
        let dLon = metres / perLon
        guard center.longitude - dLon > -180, center.longitude + dLon < 180 else { return nil }
        let rows = row(center.latitude - dLat)...row(center.latitude + dLat)
        let columns = column(center.longitude - dLon)...column(center.longitude + dLon)
        guard rows.count * columns.count <= Self.maximumCellsPerFence else { return nil }
        return (rows, columns)
    }

    mutating func insert(_ slot: Int32, center: Coordinate, radius: Double) {
        guard let range = cellRange(around: center, metres: radius) else {
            large.insert(slot)
            return
        }
        for r in range.rows { for c in range.columns { cells[Self.cellKey(row: r, column: c), default: []].append(slot) } }
    }

    mutating func remove(_ slot: Int32, center: Coordinate, radius: Double) {
        guard let range = cellRange(around: center, metres: radius) else {
            large.remove(slot)
            return
        }
        for r in range.rows {
            for c in range.columns {
                let key = Self.cellKey(row: r, column: c)
                cells[key]?.removeAll { $0 == slot }
                if cells[key]?.isEmpty == true { cells[key] = nil }
            }
        }
    }

    /// Calls `body` with every fence whose bounding box may contain `point` (the large ones too).
    func forEachCandidate(at point: Coordinate, _ body: (Int32) -> Void) {
        if let slots = cells[Self.cellKey(row: row(point.latitude), column: column(point.longitude))] {
            for slot in slots { body(slot) }
        }
        for slot in large { body(slot) }
    }

    /// How many rings around `point`'s cell cover every point within `metres`; nil where rings
    /// do not work (within `metres` of a pole's cap above 80° or of the antimeridian).
    func ringCount(around point: Coordinate, metres: Double) -> Int? {
        let dLat = metres / Geodesy.metresPerDegree
        guard abs(point.latitude) + dLat < 80 else { return nil }
        let perLon = Geodesy.metresPerDegreeOfLongitude(atLatitude: abs(point.latitude) + dLat)
        let dLon = metres / perLon
        guard point.longitude - dLon > -180, point.longitude + dLon < 180 else { return nil }
        return Int((max(dLat, dLon) / cellDegrees).rounded(.up)) + 1
    }

    /// Calls `body` with the fences listed in the ring of cells `ring` steps around `point`'s cell
    /// (ring 0 = the cell itself). Returns the smallest distance in metres from `point` to any cell
    /// of that ring: a lower bound for anything first met there.
    @discardableResult
    func forEachInRing(_ ring: Int, around point: Coordinate, _ body: (Int32) -> Void) -> Double {
        let r0 = row(point.latitude), c0 = column(point.longitude)
        let n = Int64(ring)
        if ring == 0 {
            for slot in cells[Self.cellKey(row: r0, column: c0)] ?? [] { body(slot) }
            return 0
        }
        for r in (r0 - n)...(r0 + n) {
            let edgeRow = r == r0 - n || r == r0 + n
            let step = edgeRow ? 1 : 2 * n
            var c = c0 - n
            while c <= c0 + n {
                for slot in cells[Self.cellKey(row: r, column: c)] ?? [] { body(slot) }
                c += step
            }
        }
        // The nearest point of the ring is (ring − 1) whole cells away in the narrower direction.
        let perLon = Geodesy.metresPerDegreeOfLongitude(atLatitude: min(abs(point.latitude) + Double(ring) * cellDegrees, 90))
        let cellMetres = min(Geodesy.metresPerDegree, perLon) * cellDegrees
        return Double(ring - 1) * cellMetres
    }
}
