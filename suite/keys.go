package suite

import (
	"slices"
	"strings"

	"github.com/wirebench/wirebench/spec"
)

// place is a level of a suite file where keys are read: the keys valid there, the
// other names users write for them (spec.Key.Aliases, and the settings' flags), and
// how an error says where it is. Each is made from the tables of spec (spec.FileKeys,
// spec.TargetKeys, spec.Settings, ...), so a key added there is known, listed and
// hinted at here without a line of this file changing.
type place struct {
	where   string
	keys    []string            // in the order an error lists them
	aliases map[string][]string // another name → the keys it may mean here
}

// settingKeys are the keys of the run settings, in the order the docs list them.
var settingKeys = spec.SettingKeys()

// The places of a suite file, in the order a hint names them.
var (
	topPlace      = newPlace("at the top level", false, spec.FileKeys)
	defaultsPlace = newPlace("under defaults", true)
	targetPlace   = newPlace("in a targets entry", true, spec.TargetKeys, spec.OutsideKeys)
	workloadPlace = newPlace("in a workloads entry", true, spec.WorkloadKeys)
	workersPlace  = newPlace("in the workers block", false, spec.WorkersKeys)
	places        = []*place{topPlace, defaultsPlace, targetPlace, workloadPlace, workersPlace}
)

// newPlace makes the place of the keys of tables, then with settings the run
// settings' and, in an entry (a table given), load.
func newPlace(where string, settings bool, tables ...[]spec.Key) *place {
	p := &place{where: where, aliases: map[string][]string{}}
	for _, t := range tables {
		for _, k := range t {
			p.keys = append(p.keys, k.Key)
			for _, a := range k.Aliases() {
				p.aliases[a] = append(p.aliases[a], k.Key)
			}
			if k.OldKey != "" { // read as k.Key here (checker.fields); a hint elsewhere
				p.aliases[k.OldKey] = append(p.aliases[k.OldKey], k.Key)
			}
		}
	}
	if !settings {
		return p
	}
	p.keys = append(p.keys, settingKeys...)
	for _, st := range spec.Settings {
		if f := strings.ReplaceAll(st.Flag, "-", "_"); f != "" && f != st.Key {
			p.aliases[f] = append(p.aliases[f], st.Key)
		}
	}
	if len(tables) > 0 {
		p.keys = append(p.keys, "load")
	}
	return p
}

// hint says what to write instead of key, which is not valid here: the key it is
// another name of here ("did you mean transports?"), or where it goes (a run setting
// under defaults; "link goes at the top level"); "" when it is none of these, and
// the nearest valid name is offered instead (checker.fields).
func (p *place) hint(key string) string {
	if ks, ok := p.aliases[strings.ReplaceAll(key, "-", "_")]; ok {
		return "did you mean " + orList(ks) + "?"
	}
	if spec.LookupSetting(key) != nil || spec.RenamedSetting(key) != nil {
		return key + " is a run setting: put it under defaults (or in a target or workload entry)"
	}
	var elsewhere []string
	for _, q := range places {
		switch ks, alias := q.aliases[key]; {
		case q == p:
		case slices.Contains(q.keys, key):
			elsewhere = append(elsewhere, q.where)
		case alias:
			elsewhere = append(elsewhere, q.where+" (as "+orList(ks)+")")
		}
	}
	if len(elsewhere) == 0 {
		return ""
	}
	return key + " goes " + orList(elsewhere)
}

// orList is "a", "a or b", "a, b or c".
func orList(xs []string) string {
	if n := len(xs); n > 1 {
		return strings.Join(xs[:n-1], ", ") + " or " + xs[n-1]
	}
	return strings.Join(xs, "")
}
