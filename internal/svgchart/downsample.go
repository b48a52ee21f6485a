package svgchart

// defaultMaxPoints bounds the points drawn per series; a packet trace can have hundreds of
// thousands, which would make the report page megabytes large for no visible gain.
const defaultMaxPoints = 4000

// pt is a point already mapped to pixels.
type pt struct{ x, y float64 }

// downsample returns the indices of pts to draw, in order, at most limit of them (limit >= 4).
// First it drops points that land on an already used pixel (visually lossless); if that is
// not enough it keeps, per pixel column, the highest and lowest point, plus the first and
// last point, which preserves the envelope a reader sees.
func downsample(pts []pt, x0, x1 float64, limit int) []int {
	if len(pts) <= limit {
		return seq(len(pts))
	}
	seen := make(map[[2]int]bool, limit)
	var idx []int
	for i, p := range pts {
		k := [2]int{int(p.x + 0.5), int(p.y + 0.5)}
		if !seen[k] {
			seen[k] = true
			idx = append(idx, i)
		}
	}
	if len(idx) <= limit {
		if last := len(pts) - 1; idx[len(idx)-1] != last {
			idx = append(idx, last) // the end of a series is kept even when its pixel is taken
		}
		if len(idx) <= limit {
			return idx
		}
	}
	cols := max(1, min(int(x1-x0)+1, (limit-2)/2))
	width := (x1 - x0) / float64(cols)
	if width <= 0 {
		width = 1
	}
	lo, hi := make([]int, cols), make([]int, cols)
	for c := range lo {
		lo[c], hi[c] = -1, -1
	}
	for i, p := range pts {
		c := min(max(int((p.x-x0)/width), 0), cols-1)
		// Pixel y grows downwards: "lo" is the smallest pixel y, i.e. the highest value.
		if lo[c] < 0 || p.y < pts[lo[c]].y {
			lo[c] = i
		}
		if hi[c] < 0 || p.y > pts[hi[c]].y {
			hi[c] = i
		}
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	for c := range lo {
		if lo[c] >= 0 {
			keep[lo[c]], keep[hi[c]] = true, true
		}
	}
	idx = idx[:0]
	for i, k := range keep {
		if k {
			idx = append(idx, i)
		}
	}
	return idx
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
