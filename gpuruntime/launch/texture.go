package launch

import (
	"encoding/binary"
	"strings"

	"ldcheck/privatize/manifest"
)

// Texture objects. A cudaTextureObject_t parameter is given as a buffer,
// --arg tex=float[1024]:rand: the texture reads that buffer. On the CPU
// backend the handle the kernel gets is the address of a descriptor laid
// out in front of the buffer's bytes (TextureHeader bytes, mirrored by
// ldc::Texture in gpuruntime/cpu/include/ldcheck_cpu.h); the CUDA backend
// would create a linear texture object over the bytes (not implemented).

// TextureHeader is the size of the descriptor in front of a texture's
// bytes.
const TextureHeader = 64

const textureMagic = 0x3130584554434c44 // "LDCTEX01"

// IsTexture tells a texture object parameter.
func IsTexture(p manifest.Param) bool {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.Type), "const "))
	return !p.Pointer && (t == "cudaTextureObject_t" || t == "CUtexObject")
}

// texture binds a texture object parameter to the buffer a gives.
func (b *binder) texture(i int, p manifest.Param, a Arg, given bool) (Value, error) {
	name := paramName(i, p)
	if !given {
		return Value{}, errorf("--arg", name, "%s is a texture object (%s): give the buffer it reads, --arg %s=TYPE[COUNT]:INIT, e.g. --arg %s=float[1024]:rand", name, decl(p), name, name)
	}
	if !a.IsBuffer() || a.Init.Struct {
		return Value{}, errorf("--arg", a.raw(), "%s is a texture object (%s): give the buffer it reads as %s=TYPE[COUNT]:INIT, TYPE one of --arg's, e.g. %s=float[1024]:rand", name, decl(p), name, name)
	}
	t, ok := lookupType(a.Type)
	if !ok {
		return Value{}, errorf("--arg", a.raw(), "%s", unknownType(a.Type))
	}
	data, err := initData(t, a.Count, a.Init, a.raw())
	if err != nil {
		return Value{}, err
	}
	buf := make([]byte, TextureHeader+len(data))
	binary.LittleEndian.PutUint64(buf[0:], textureMagic)
	binary.LittleEndian.PutUint64(buf[8:], uint64(a.Count))
	binary.LittleEndian.PutUint64(buf[16:], uint64(t.size))
	binary.LittleEndian.PutUint64(buf[24:], uint64(a.Count)) // width
	binary.LittleEndian.PutUint64(buf[32:], 0)               // height: 1-D
	copy(buf[TextureHeader:], data)
	return Value{Param: p, Buffer: true, Texture: true, Data: buf, Count: a.Count, ElemSize: t.size, Type: t.name, Init: a.Init}, nil
}
