package cuda

// DeviceGetCount is cuDeviceGetCount.
func (d *Driver) DeviceGetCount() (int, error) {
	var n int32
	err := d.check("cuDeviceGetCount", d.cuDeviceGetCount(&n))
	return int(n), err
}

// DeviceGet is cuDeviceGet: the device of the given ordinal.
func (d *Driver) DeviceGet(ordinal int) (Device, error) {
	var dev Device
	err := d.check("cuDeviceGet", d.cuDeviceGet(&dev, int32(ordinal)))
	return dev, err
}

// DeviceGetName is cuDeviceGetName (mumax's Device.Name).
func (d *Driver) DeviceGetName(dev Device) (string, error) {
	buf := make([]byte, 256)
	if err := d.check("cuDeviceGetName", d.cuDeviceGetName(&buf[0], int32(len(buf)), dev)); err != nil {
		return "", err
	}
	return cString(buf), nil
}

// DeviceGetAttribute is cuDeviceGetAttribute (mumax's Device.Attribute).
func (d *Driver) DeviceGetAttribute(attr DeviceAttribute, dev Device) (int, error) {
	var v int32
	err := d.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&v, attr, dev))
	return int(v), err
}

// DeviceComputeCapability returns the device's compute capability, 9 and 0
// for sm_90.
func (d *Driver) DeviceComputeCapability(dev Device) (major, minor int, err error) {
	if major, err = d.DeviceGetAttribute(AttrComputeCapabilityMajor, dev); err != nil {
		return 0, 0, err
	}
	if minor, err = d.DeviceGetAttribute(AttrComputeCapabilityMinor, dev); err != nil {
		return 0, 0, err
	}
	return major, minor, nil
}

// DeviceTotalMem is cuDeviceTotalMem_v2: the device's memory in bytes
// (mumax's Device.TotalMem).
func (d *Driver) DeviceTotalMem(dev Device) (int64, error) {
	var n uintptr
	err := d.check("cuDeviceTotalMem", d.cuDeviceTotalMem(&n, dev))
	return int64(n), err
}

// DevicePrimaryCtxRetain is cuDevicePrimaryCtxRetain: the device's primary
// context, retained (balance with DevicePrimaryCtxRelease). It is not made
// current; call CtxSetCurrent.
func (d *Driver) DevicePrimaryCtxRetain(dev Device) (Context, error) {
	var ctx Context
	err := d.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&ctx, dev))
	return ctx, err
}

// DevicePrimaryCtxRelease is cuDevicePrimaryCtxRelease_v2.
func (d *Driver) DevicePrimaryCtxRelease(dev Device) error {
	return d.check("cuDevicePrimaryCtxRelease", d.cuDevicePrimaryCtxRelease(dev))
}

// CtxCreate is cuCtxCreate_v2: a new context, current on the calling OS
// thread. ldcheck normally uses the primary context instead.
func (d *Driver) CtxCreate(flags uint32, dev Device) (Context, error) {
	var ctx Context
	err := d.check("cuCtxCreate", d.cuCtxCreate(&ctx, flags, dev))
	return ctx, err
}

// CtxDestroy is cuCtxDestroy_v2 (not for primary contexts).
func (d *Driver) CtxDestroy(ctx Context) error {
	return d.check("cuCtxDestroy", d.cuCtxDestroy(ctx))
}

// CtxSetCurrent is cuCtxSetCurrent: ctx becomes current on the calling OS
// thread (see the package comment on goroutines and OS threads).
func (d *Driver) CtxSetCurrent(ctx Context) error {
	return d.check("cuCtxSetCurrent", d.cuCtxSetCurrent(ctx))
}

// CtxGetCurrent is cuCtxGetCurrent: the calling OS thread's current context,
// 0 if none.
func (d *Driver) CtxGetCurrent() (Context, error) {
	var ctx Context
	err := d.check("cuCtxGetCurrent", d.cuCtxGetCurrent(&ctx))
	return ctx, err
}

// CtxSynchronize is cuCtxSynchronize: waits for all work in the current
// context. Errors of earlier asynchronous work (a kernel's illegal address)
// surface here.
func (d *Driver) CtxSynchronize() error {
	return d.check("cuCtxSynchronize", d.cuCtxSynchronize())
}
