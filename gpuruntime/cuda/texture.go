package cuda

import "fmt"

// TexObject is a CUtexObject: the 64-bit handle a kernel's
// cudaTextureObject_t parameter holds.
type TexObject uint64

// ArrayFormat is a CUarray_format: the type of a texture's channels.
type ArrayFormat uint32

// The channel formats of the CUDA driver API (cuda.h's CU_AD_FORMAT_*).
const (
	FormatUint8  ArrayFormat = 0x01
	FormatUint16 ArrayFormat = 0x02
	FormatUint32 ArrayFormat = 0x03
	FormatInt8   ArrayFormat = 0x08
	FormatInt16  ArrayFormat = 0x09
	FormatInt32  ArrayFormat = 0x0a
	FormatHalf   ArrayFormat = 0x10
	FormatFloat  ArrayFormat = 0x20
)

// resourceDesc mirrors CUDA_RESOURCE_DESC for a linear resource: the type
// (CU_RESOURCE_TYPE_LINEAR), then the union's linear member, padded to
// the union's 128 bytes, then the flags.
type resourceDesc struct {
	resType     uint32
	_           uint32
	devPtr      DevicePtr
	format      ArrayFormat
	numChannels uint32
	sizeInBytes uint64
	_           [128 - 24]byte
	flags       uint32
	_           uint32
}

// textureDesc mirrors CUDA_TEXTURE_DESC (104 bytes). Zero is point
// sampling; flags carries CU_TRSF_READ_AS_INTEGER.
type textureDesc struct {
	addressMode         [3]uint32
	filterMode          uint32
	flags               uint32
	maxAnisotropy       uint32
	mipmapFilterMode    uint32
	mipmapLevelBias     float32
	minMipmapLevelClamp float32
	maxMipmapLevelClamp float32
	borderColor         [4]float32
	_                   [12]int32
}

const (
	resourceTypeLinear = 0x02
	trsfReadAsInteger  = 0x01
)

// TexObjectCreateLinear is cuTexObjectCreate over bytes of device memory
// at p holding texels of channels (1, 2 or 4) numbers of format f: what
// tex1Dfetch reads. An
// integer format is read as integers (the runtime API's
// cudaReadModeElementType), not promoted to normalised floats. p must be
// aligned as the device's texture alignment asks (cuMemAlloc's are).
func (d *Driver) TexObjectCreateLinear(p DevicePtr, bytes int64, f ArrayFormat, channels int) (TexObject, error) {
	const call = "cuTexObjectCreate"
	if bytes <= 0 {
		return 0, argError(call, "size %d is not positive", bytes)
	}
	if channels != 1 && channels != 2 && channels != 4 {
		return 0, argError(call, "%d channels (want 1, 2 or 4)", channels)
	}
	res := resourceDesc{resType: resourceTypeLinear, devPtr: p, format: f, numChannels: uint32(channels), sizeInBytes: uint64(bytes)}
	var tex textureDesc
	if f != FormatFloat && f != FormatHalf {
		tex.flags = trsfReadAsInteger
	}
	var t TexObject
	if err := d.check(call, d.cuTexObjectCreate(&t, &res, &tex, nil)); err != nil {
		return 0, fmt.Errorf("texture over %d bytes at %#x: %w", bytes, uint64(p), err)
	}
	return t, nil
}

// TexObjectDestroy is cuTexObjectDestroy.
func (d *Driver) TexObjectDestroy(t TexObject) error {
	return d.check("cuTexObjectDestroy", d.cuTexObjectDestroy(t))
}
