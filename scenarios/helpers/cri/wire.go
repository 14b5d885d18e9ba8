// The few CRI v1 messages this driver sends and reads, encoded by hand
// with protowire: no generated code and no protoc. The field numbers are
// those of the runtime.v1 API (the cri-api module, api.proto).
package main

import (
	"fmt"
	"sort"

	"deps/protowire"
)

// msg is a protobuf message under construction.
type msg []byte

func (m msg) str(field protowire.Number, s string) msg {
	if s == "" {
		return m
	}
	m = protowire.AppendTag(m, field, protowire.BytesType)
	return protowire.AppendString(m, s)
}

func (m msg) varint(field protowire.Number, v uint64) msg {
	if v == 0 {
		return m
	}
	m = protowire.AppendTag(m, field, protowire.VarintType)
	return protowire.AppendVarint(m, v)
}

func (m msg) sub(field protowire.Number, sub msg) msg {
	m = protowire.AppendTag(m, field, protowire.BytesType)
	return protowire.AppendBytes(m, sub)
}

// strmap: a map<string, string> is a repeated entry message {key = 1;
// value = 2}; sorted, so that one request is always the same bytes.
func (m msg) strmap(field protowire.Number, kv map[string]string) msg {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m = m.sub(field, msg(nil).str(1, k).str(2, kv[k]))
	}
	return m
}

// fields is a decoded message: each field number's raw values, in order
// (the bytes of a string or sub-message, or a varint).
type fields map[protowire.Number][]interface{}

func decode(b []byte) (fields, error) {
	f := fields{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, fmt.Errorf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return nil, fmt.Errorf("field %d: %v", num, protowire.ParseError(n))
			}
			f[num] = append(f[num], v)
			b = b[n:]
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, fmt.Errorf("field %d: %v", num, protowire.ParseError(n))
			}
			f[num] = append(f[num], v)
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return nil, fmt.Errorf("field %d: %v", num, protowire.ParseError(n))
			}
			b = b[n:]
		}
	}
	return f, nil
}

func (f fields) str(num protowire.Number) string {
	if v := f[num]; len(v) > 0 {
		if b, ok := v[len(v)-1].([]byte); ok {
			return string(b)
		}
	}
	return ""
}

func (f fields) varint(num protowire.Number) uint64 {
	if v := f[num]; len(v) > 0 {
		if u, ok := v[len(v)-1].(uint64); ok {
			return u
		}
	}
	return 0
}

func (f fields) sub(num protowire.Number) (fields, error) {
	return decode([]byte(f.str(num)))
}
