// mkprof — writes hand-made profile.proto messages (google/pprof's
// proto/profile.proto) for tests/cli/pprof.sh: `mkprof KIND > FILE`.
// "shapes" is a valid profile whose structure the test knows (inlined
// frames, a location without lines, direct recursion, a sample without
// locations, packed and unpacked repeated fields, fields in an unusual
// order); "drop", "drop-whole" and "drop-root" are the same with
// drop_frames (and keep_frames) set; the other kinds are each broken in
// one way the reader must name.  Written uncompressed; the test compresses some.
package main

import (
	"fmt"
	"os"
)

type msg []byte

func (m *msg) varint(v uint64) {
	for v >= 0x80 {
		*m = append(*m, byte(v)|0x80)
		v >>= 7
	}
	*m = append(*m, byte(v))
}

func (m *msg) num(field int, v uint64) { m.varint(uint64(field) << 3); m.varint(v) }

func (m *msg) bytes(field int, p []byte) {
	m.varint(uint64(field)<<3 | 2)
	m.varint(uint64(len(p)))
	*m = append(*m, p...)
}

func (m *msg) sub(field int, s msg) { m.bytes(field, s) }

func (m *msg) packed(field int, vs ...uint64) {
	var p msg
	for _, v := range vs {
		p.varint(v)
	}
	m.bytes(field, p)
}

func valueType(t, u uint64) msg { var m msg; m.num(1, t); m.num(2, u); return m }

func function(id, name uint64) msg { var m msg; m.num(1, id); m.num(2, name); m.num(4, 9); m.num(5, 7); return m }

// location: id, mapping (0: none), the lines' function ids, innermost first
func location(id, mapping uint64, fns ...uint64) msg {
	var m msg
	m.num(1, id)
	if mapping != 0 {
		m.num(2, mapping)
		m.num(3, 0x1234)
	}
	for i, f := range fns {
		var l msg
		l.num(1, f)
		l.num(2, uint64(10+i))
		m.sub(4, l)
	}
	return m
}

var strs = []string{"", "samples", "count", "cpu", "nanoseconds", "main", "outer", "inner",
	"/usr/lib/libfoo.so", "shapes.c", "rec", "inn.*", "outer|rec"}

func profile(kind string) msg {
	var p msg
	// the string table first and in two parts: fields come in any order
	table := strs
	if kind == "string0" {
		table = append([]string{"x"}, strs[1:]...)
	}
	for _, s := range table[:6] {
		p.bytes(6, []byte(s))
	}
	p.sub(1, valueType(1, 2))
	p.sub(1, valueType(3, 4))
	var mapping msg
	mapping.num(1, 1)
	mapping.num(5, 8)
	p.sub(3, mapping)
	p.sub(5, function(1, 5))
	p.sub(5, function(2, 6))
	p.sub(5, function(3, 7))
	rec := uint64(10)
	if kind == "string-index" {
		rec = 99
	}
	p.sub(5, function(4, rec))
	if kind == "repeated-id" {
		p.sub(5, function(4, 10))
	}
	p.sub(4, location(10, 0, 1))
	p.sub(4, location(20, 0, 3, 2))
	p.sub(4, location(30, 1))
	missing := uint64(4)
	if kind == "missing-function" {
		missing = 77
	}
	p.sub(4, location(40, 0, missing))
	// main > outer > inner, location ids packed, values not
	var s msg
	s.packed(1, 20, 10)
	s.num(2, 1)
	s.num(2, 10)
	p.sub(2, s)
	// main > outer > inner > [libfoo.so], ids not packed, values packed
	s = nil
	s.num(1, 30)
	s.num(1, 20)
	s.num(1, 10)
	s.packed(2, 2, 20)
	p.sub(2, s)
	// main > rec > rec > rec, with a label
	s = nil
	last := uint64(10)
	if kind == "missing-location" {
		last = 55
	}
	s.packed(1, 40, 40, 40, last)
	s.packed(2, 3, 30)
	var label msg
	label.num(1, 1)
	label.num(3, 7)
	s.sub(3, label)
	p.sub(2, s)
	// no locations at all
	s = nil
	value := uint64(40)
	if kind == "negative" {
		value = ^uint64(4) // -5 as int64
	}
	s.packed(2, 4, value)
	if kind == "values" {
		s.num(2, 1)
	}
	p.sub(2, s)
	for _, str := range table[6:] {
		p.bytes(6, []byte(str))
	}
	p.num(14, 3) // default_sample_type: cpu
	// drop_frames (7) and keep_frames (8), as pprof's profile.Prune applies them
	switch kind {
	case "drop": // inner, an inner line of location 20: its outer line stays
		p.num(7, 11)
	case "drop-whole": // outer, location 20's outermost line, and rec, which keep_frames keeps
		p.num(7, 12)
		p.num(8, 10)
	case "drop-root": // main, at the root of every stack: nothing is dropped
		p.num(7, 5)
	}
	if kind == "overlong" {
		p = append(p, 0x48, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)
	}
	return p
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mkprof shapes|drop|drop-whole|drop-root|string0|string-index|repeated-id|missing-function|missing-location|negative|values|overlong")
		os.Exit(2)
	}
	os.Stdout.Write(profile(os.Args[1]))
}
