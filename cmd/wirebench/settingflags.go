package main

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/units"
	"github.com/wirebench/wirebench/spec"
)

// settingFlags are a command's flags of the settings of a table (spec.Settings, or
// spec.CapacitySettings): each setting with a Flag gets one, with the table's help
// and the defaults' value as its default, so a setting is written once for the suite
// files and the command line. kong fills them as it fills a struct's fields (a
// struct type made at run time, embedded as a plugin).
type settingFlags struct {
	settings []*spec.Setting
	values   reflect.Value // *struct{...}: a field per setting, in settings' order, then the old flags'
	// old is the field of each setting's former flag (Setting.OldFlag), a pointer nil
	// unless it was given; -1 for a setting without one.
	old      []int
	defaults spec.Spec // the flags' defaults
}

// newSettingFlags makes the flags of every setting of spec.Settings with a Flag but
// those omitted (settings the command sets itself), with spec.Default's defaults.
func newSettingFlags(omit ...string) *settingFlags {
	return newTableFlags(spec.Settings, spec.Default(), omit...)
}

// newTableFlags makes the flags of every setting of table with a Flag but those
// omitted, with d's values as their defaults.
func newTableFlags(table []*spec.Setting, d spec.Spec, omit ...string) *settingFlags {
	f := &settingFlags{defaults: d}
	var fields []reflect.StructField
	for _, st := range table {
		if st.Flag == "" || slices.Contains(omit, st.Key) {
			continue
		}
		tag := fmt.Sprintf("name:%q help:%q", st.Flag, st.Help)
		if v := st.Get(d); !reflect.ValueOf(v).IsZero() {
			tag += fmt.Sprintf(" default:%q", st.Format(v))
		}
		if st.Short != 0 {
			tag += fmt.Sprintf(" short:%q", string(st.Short))
		}
		if st.Kind == spec.Enum {
			var values []string
			for _, c := range st.Choices {
				values = append(values, c.Value)
			}
			tag += fmt.Sprintf(" enum:%q", strings.Join(values, ","))
		}
		f.settings = append(f.settings, st)
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Setting%d", len(fields)), Type: flagType(st.Kind), Tag: reflect.StructTag(tag)})
	}
	// Each former flag is a hidden one of its own after them, read by apply as the
	// new one (deprecated says so).
	f.old = make([]int, len(f.settings))
	for i, st := range f.settings {
		f.old[i] = -1
		if st.OldFlag == "" {
			continue
		}
		f.old[i] = len(fields)
		tag := fmt.Sprintf("name:%q hidden:\"\" help:%q", st.OldFlag, "Deprecated: --"+st.Flag+".")
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Old%d", i), Type: reflect.PointerTo(flagType(st.Kind)), Tag: reflect.StructTag(tag)})
	}
	f.values = reflect.New(reflect.StructOf(fields))
	return f
}

// deprecated says, one line each, which former flags were given and what they are now.
func (f *settingFlags) deprecated() []string {
	var notes []string
	for i, st := range f.settings {
		if f.oldValue(i) != nil {
			notes = append(notes, fmt.Sprintf("--%s is deprecated: it is --%s now (read as --%s)", st.OldFlag, st.Flag, st.Flag))
		}
	}
	return notes
}

// oldValue is the value of the i-th setting's former flag, or nil when it has none or
// it was not given.
func (f *settingFlags) oldValue(i int) any {
	if f.old[i] < 0 {
		return nil
	}
	if p := f.values.Elem().Field(f.old[i]); !p.IsNil() {
		return p.Elem().Interface()
	}
	return nil
}

// flagType is the Go type kong reads a flag of kind k into.
func flagType(k spec.Kind) reflect.Type {
	switch k {
	case spec.Duration:
		return reflect.TypeFor[time.Duration]()
	case spec.Int:
		return reflect.TypeFor[int64]()
	case spec.Uint:
		return reflect.TypeFor[uint64]()
	case spec.Size:
		return reflect.TypeFor[units.Size]()
	case spec.Float:
		return reflect.TypeFor[float64]()
	case spec.Bool:
		return reflect.TypeFor[bool]()
	case spec.SLOs:
		return reflect.TypeFor[[]string]() // repeatable, each read by spec.ParseSLO
	}
	return reflect.TypeFor[string]() // Enum, CPUs, Args: read from their text
}

// plugin is what a command embeds for kong to see the flags.
func (f *settingFlags) plugin() kong.Plugins { return kong.Plugins{f.values.Interface()} }

// apply stores the flags' values in s. The CPU lists are read only when pin is set
// (--no-pin makes them irrelevant); a list that is not one is a usage error, and so
// is an objective that is not one.
func (f *settingFlags) apply(s *spec.Spec, pin bool) error {
	for i, st := range f.settings {
		var v spec.Value
		given := f.values.Elem().Field(i).Interface()
		if old := f.oldValue(i); old != nil {
			// The new flag keeps its default unless given: one that does not was
			// given too (one given as its default is not seen, and the old one wins).
			if fmt.Sprint(given) != st.Format(st.Get(f.defaults)) {
				return usagef("--%s and --%s are one setting (--%s is its former name): give --%s", st.OldFlag, st.Flag, st.OldFlag, st.Flag)
			}
			given = old
		}
		switch fv := given.(type) {
		case units.Size:
			v = int64(fv)
		case []string: // SLOs
			var slos []spec.SLO
			for _, s := range fv {
				o, err := spec.ParseSLO(s)
				if err != nil {
					return usagef("--%s: %v", st.Flag, err)
				}
				slos = append(slos, o)
			}
			v = slos
		case string:
			switch st.Kind {
			case spec.CPUs:
				if !pin {
					continue
				}
				cpus, err := cpuset.ParseCPUList(fv)
				if err != nil {
					return usagef("--%s: %v", st.Flag, err)
				}
				v = cpus
			case spec.Args:
				v = strings.Fields(fv)
			default:
				v = fv
			}
		default:
			v = fv
		}
		st.Set(s, v)
	}
	return nil
}

// flagOf returns the flag of a setting's key ("--data-size"), or "" when it has none.
func flagOf(key string) string {
	if st := spec.LookupSetting(key); st != nil && st.Flag != "" {
		return "--" + st.Flag
	}
	return ""
}
