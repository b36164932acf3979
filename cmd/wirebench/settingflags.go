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
	values   reflect.Value // *struct{...}: a field per setting, in settings' order
}

// newSettingFlags makes the flags of every setting of spec.Settings with a Flag but
// those omitted (settings the command sets itself), with spec.Default's defaults.
func newSettingFlags(omit ...string) *settingFlags {
	return newTableFlags(spec.Settings, spec.Default(), omit...)
}

// newTableFlags makes the flags of every setting of table with a Flag but those
// omitted, with d's values as their defaults.
func newTableFlags(table []*spec.Setting, d spec.Spec, omit ...string) *settingFlags {
	f := &settingFlags{}
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
	f.values = reflect.New(reflect.StructOf(fields))
	return f
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
		switch fv := f.values.Elem().Field(i).Interface().(type) {
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
