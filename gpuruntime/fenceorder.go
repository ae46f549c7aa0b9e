package gpuruntime

import (
	"fmt"

	"ldcheck/privatize/manifest"
)

// DropFenceOrdered removes the races between blocks that the "last
// block" idiom orders (passes.FenceOrder): a read-write race whose every
// explained pair is a write followed by __threadfence() and a read that
// runs only under a condition on an atomic's result made after a fence,
// and an atomic-plain race between such a guarded plain access and an
// atomic made after a fence. Each block's fence orders its store before
// its atomic, and the block whose atomic came last reads after every
// other block's atomic: the accesses are ordered, and reporting them
// would be a false alarm. A race whose statements are not known (not
// explained) is kept. A note says what was left out; dropped says whether
// any was.
func DropFenceOrdered(res *Result, sites []manifest.Site) (dropped bool) {
	site := func(a Access) (manifest.Site, bool) {
		if a.site < 1 || a.site > len(sites) {
			return manifest.Site{}, false
		}
		return sites[a.site-1], true
	}
	ordered := func(kind string, pair []Access) bool {
		if len(pair) != 2 {
			return false
		}
		a, okA := site(pair[0])
		b, okB := site(pair[1])
		if !okA || !okB {
			return false
		}
		if kind == "atomic-plain" {
			return a.TicketGuarded && b.Kind == manifest.SiteAtomic && b.FenceBefore || b.TicketGuarded && a.Kind == manifest.SiteAtomic && a.FenceBefore
		}
		w, r := a, b
		if pair[0].Kind == manifest.SiteRead {
			w, r = b, a
		}
		return w.Kind != manifest.SiteRead && w.FenceAfter && r.Kind != manifest.SiteWrite && r.TicketGuarded
	}
	kept := res.Races[:0]
	for i := range res.Races {
		rc := res.Races[i]
		drop := rc.Scope == manifest.ScopeInterBlock && (rc.Kind == "read-write" || rc.Kind == "atomic-plain") && ordered(rc.Kind, rc.Accesses)
		for _, p := range rc.MorePairs {
			drop = drop && ordered(rc.Kind, p[:])
		}
		if !drop {
			kept = append(kept, rc)
			continue
		}
		dropped = true
		res.Notes = append(res.Notes, fmt.Sprintf("%s race between blocks on %s (lines %d and %d) not reported: a __threadfence() and an atomic's result order the two accesses (the last-block idiom)", rc.Kind, rc.Element, rc.Accesses[0].Line, rc.Accesses[1].Line))
	}
	res.Races = kept
	return dropped
}
