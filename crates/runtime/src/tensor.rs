//! Host tensors: a dtype, a shape and the values as `f64` (already rounded to the dtype), the
//! currency of the driver and the reference evaluator. Also seeded random fill and the
//! sharding helpers that cut a global tensor into the piece each rank holds and put the pieces
//! of an output back together.
//!
//! Sharding rules (`fusion::Sharding` on a `fusion::Mesh`): each tensor axis lists its outer
//! splits, outermost first. A position along the axis is a mixed-radix number with one digit
//! per split plus an inner offset; a device holds the positions whose device-split digits equal
//! its coordinate along that mesh axis (`DIDx` is the last mesh axis), in increasing order.
//! Stream splits do not change what a rank holds. A value that is `partial` over device axes
//! with reduction `reduce` is held as one shard per coordinate along those axes (the devices
//! that differ only along them): random shards whose reduction is the value exactly, drawn
//! per element from the element's position and value, so every device draws the same split
//! (`partial.rs`). Gathering a partial output reduces the shards of each such group; groups
//! that replicate one another (along the other mesh axes) must agree exactly.

use crate::dtype::DType;
pub use crate::dtype::round_to;
use crate::error::{RtError, RtResult};
use crate::partial;
pub use crate::rng::XorShift;
use fuser_dialects::fusion::{DeviceAxis, Mesh, Sharding, Split};

/// A dense row-major tensor on the host.
#[derive(Clone, Debug, PartialEq)]
pub struct HostTensor {
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// Row-major values, representable in `dtype`.
    pub data: Vec<f64>,
}

impl HostTensor {
    /// A tensor of `data`; errors when the count does not match the shape.
    pub fn new(dtype: DType, shape: impl Into<Vec<usize>>, data: Vec<f64>) -> RtResult<HostTensor> {
        let shape = shape.into();
        let n: usize = shape.iter().product();
        if n != data.len() {
            return Err(RtError::new(format!("{} values for a tensor of shape {shape:?}", data.len())));
        }
        Ok(HostTensor { dtype, shape, data })
    }

    pub fn zeros(dtype: DType, shape: &[usize]) -> HostTensor {
        HostTensor { dtype, shape: shape.to_vec(), data: vec![0.0; shape.iter().product()] }
    }

    /// Seeded values: uniform in `[-1, 1)` for floats, small integers in `[-8, 8)` otherwise,
    /// rounded to `dtype`.
    pub fn random(dtype: DType, shape: &[usize], seed: u64) -> HostTensor {
        let mut rng = XorShift::new(seed);
        let n: usize = shape.iter().product();
        let data = (0..n)
            .map(|_| {
                let u = rng.next_signed_unit();
                match dtype {
                    DType::I1 => (u >= 0.0) as u8 as f64,
                    _ if dtype.is_float() => round_to(dtype, u),
                    _ => (u * 8.0).floor(),
                }
            })
            .collect();
        HostTensor { dtype, shape: shape.to_vec(), data }
    }

    pub fn numel(&self) -> usize {
        self.data.len()
    }

    /// `||self - reference|| / ||reference||` (the absolute norm when the reference is zero)
    /// over the elements where the reference is finite. Non-finite elements must match
    /// exactly (NaN where the reference is NaN, infinities of the same sign: `x / 0` computed
    /// both ways, fuser-lowerfuzz seed 5001830); any other pairing is an infinite error.
    pub fn rel_error(&self, reference: &HostTensor) -> RtResult<f64> {
        if self.shape != reference.shape {
            return Err(RtError::new(format!(
                "shape {:?} differs from the reference {:?}",
                self.shape, reference.shape
            )));
        }
        let (mut diff, mut norm) = (0.0f64, 0.0f64);
        for (&a, &b) in self.data.iter().zip(&reference.data) {
            if b.is_finite() && a.is_finite() {
                diff += (a - b) * (a - b);
                norm += b * b;
            } else if !same_non_finite(a, b) {
                return Ok(f64::INFINITY);
            }
        }
        let (diff, norm) = (diff.sqrt(), norm.sqrt());
        Ok(if norm > 0.0 { diff / norm } else { diff })
    }
}

/// The reduction of two values of `dtype` under `kind`: integers wrap at the element width
/// (`numerics::int_combine`; exact for values below 2^53), floats combine in `f64`.
fn combine_as(dtype: DType, kind: fuser_dialects::reduction::ReductionKind, a: f64, b: f64) -> f64 {
    if dtype.is_int() {
        crate::numerics::int_combine(kind, dtype, a as i64, b as i64) as f64
    } else {
        kind.combine(a, b)
    }
}

/// Whether `a` and `b` are the same non-finite value (both NaN, or one infinity).
fn same_non_finite(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a.is_infinite() && a == b)
}

/// The coordinate of `device` along the mesh axis of `split`, and that axis' size (stream
/// splits: `None`, they do not select).
fn device_digit(split: Split, mesh: &Mesh, device: i64) -> RtResult<Option<(usize, usize)>> {
    match split {
        Split::Stream(_) => Ok(None),
        Split::Device(d) => {
            let size = mesh
                .axis_size(d)
                .ok_or_else(|| RtError::new(format!("mesh @{} has no axis {}", mesh.name, d.keyword())))?;
            let coord = mesh
                .team_index(device, d)
                .ok_or_else(|| RtError::new(format!("device {device} is not in mesh @{}", mesh.name)))?;
            Ok(Some((coord, size.max(1) as usize)))
        }
    }
}

/// The global positions along one axis of `extent` that `device` holds, in local order.
fn held_positions(extent: usize, splits: &[Split], mesh: &Mesh, device: i64) -> RtResult<Vec<usize>> {
    let mut factors = Vec::with_capacity(splits.len());
    let mut wanted = Vec::with_capacity(splits.len());
    for &s in splits {
        match (s, device_digit(s, mesh, device)?) {
            (_, Some((coord, size))) => {
                factors.push(size);
                wanted.push(Some(coord));
            }
            (Split::Stream(n), None) => {
                factors.push(n.max(1) as usize);
                wanted.push(None);
            }
            (Split::Device(_), None) => return Err(RtError::new("device split without a mesh axis")),
        }
    }
    let outer: usize = factors.iter().product();
    if outer == 0 || !extent.is_multiple_of(outer) {
        return Err(RtError::new(format!("extent {extent} is not divisible by its splits ({outer})")));
    }
    let inner = extent / outer;
    Ok((0..extent)
        .filter(|&p| {
            let mut q = p / inner;
            for i in (0..factors.len()).rev() {
                let digit = q % factors[i];
                q /= factors[i];
                if wanted[i].is_some_and(|w| w != digit) {
                    return false;
                }
            }
            true
        })
        .collect())
}

/// Per axis, the global positions `device` holds.
fn held_index_lists(shape: &[usize], sharding: &Sharding, mesh: &Mesh, device: i64) -> RtResult<Vec<Vec<usize>>> {
    if sharding.axes.len() != shape.len() {
        return Err(RtError::new(format!(
            "sharding has {} split lists for a tensor of rank {}",
            sharding.axes.len(),
            shape.len()
        )));
    }
    shape.iter().zip(&sharding.axes).map(|(&e, splits)| held_positions(e, splits, mesh, device)).collect()
}

/// The row-major flat global offsets of the local elements, in local row-major order.
fn global_offsets(shape: &[usize], lists: &[Vec<usize>]) -> Vec<usize> {
    let strides = crate::buffer::contiguous_strides(shape);
    let mut offsets = vec![0usize];
    for (list, stride) in lists.iter().zip(strides) {
        offsets = offsets.iter().flat_map(|&o| list.iter().map(move |&p| o + p * stride)).collect();
    }
    offsets
}

/// Where `device` sits among the shards of a value partial over `sharding.partial`: (its
/// index, the number of shards), mixed-radix over the partial axes in their listed order.
fn shard_slot(sharding: &Sharding, mesh: &Mesh, device: i64) -> RtResult<(usize, usize)> {
    let (mut slot, mut count) = (0, 1);
    for &d in &sharding.partial {
        if let Some((coord, size)) = device_digit(Split::Device(d), mesh, device)? {
            slot = slot * size + coord;
            count *= size;
        }
    }
    Ok((slot, count))
}

/// The coordinates of `device` along the mesh axes that are not partial: devices with equal
/// keys hold shards of one copy of a partial value.
fn replica_key(sharding: &Sharding, mesh: &Mesh, device: i64) -> RtResult<Vec<usize>> {
    let mut key = Vec::new();
    for d in DeviceAxis::ALL.into_iter().filter(|d| !sharding.partial.contains(d)) {
        if let Some((coord, _)) = device_digit(Split::Device(d), mesh, device).ok().flatten() {
            key.push(coord);
        }
    }
    if mesh.devices.contains(&device) {
        Ok(key)
    } else {
        Err(RtError::new(format!("device {device} is not in mesh @{}", mesh.name)))
    }
}

/// The generator of the shards of the element at global offset `offset` with value `value`:
/// the same on every device.
fn shard_rng(offset: usize, value: f64) -> XorShift {
    XorShift::new((offset as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ value.to_bits())
}

/// The piece of `global` that `device` holds under `sharding`.
pub fn local_piece(global: &HostTensor, sharding: &Sharding, mesh: &Mesh, device: i64) -> RtResult<HostTensor> {
    let lists = held_index_lists(&global.shape, sharding, mesh, device)?;
    let shape: Vec<usize> = lists.iter().map(Vec::len).collect();
    let offsets = global_offsets(&global.shape, &lists);
    let data = if sharding.partial.is_empty() {
        offsets.into_iter().map(|o| global.data[o]).collect()
    } else {
        let (slot, count) = shard_slot(sharding, mesh, device)?;
        let shard = |o: usize| {
            let v = global.data[o];
            partial::split(sharding.reduce, global.dtype, v, count, &mut shard_rng(o, v))[slot]
        };
        offsets.into_iter().map(shard).collect()
    };
    Ok(HostTensor { dtype: global.dtype, shape, data })
}

/// The index (one coordinate per axis) of the element at row-major `offset` of `shape`.
fn multi_index(mut offset: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &extent) in shape.iter().enumerate().rev() {
        index[i] = offset % extent.max(1);
        offset /= extent.max(1);
    }
    index
}

/// The global tensor of `shape` put together from the pieces of the devices (`(device,
/// piece)`). Elements held by several devices (replication) must agree exactly; the first
/// device's value is kept. The shards of a partial value are reduced (in device order) over
/// the devices of its partial axes, and those reductions must agree between replicas.
pub fn gather_global(
    pieces: &[(i64, HostTensor)],
    shape: &[usize],
    sharding: &Sharding,
    mesh: &Mesh,
) -> RtResult<HostTensor> {
    let dtype = pieces.first().map(|p| p.1.dtype).ok_or_else(|| RtError::new("no pieces to gather"))?;
    let n: usize = shape.iter().product();
    // Per replica (devices equal but along the partial axes): the reduced shards; without
    // partial axes every device is its own replica and holds plain values.
    let mut replicas: Vec<(Vec<usize>, Vec<Option<f64>>)> = Vec::new();
    let mut members: Vec<i64> = Vec::new();
    for (device, piece) in pieces {
        let lists = held_index_lists(shape, sharding, mesh, *device)?;
        let offsets = global_offsets(shape, &lists);
        if offsets.len() != piece.numel() {
            return Err(RtError::new(format!(
                "device {device} holds {} elements, its piece should have {}",
                piece.numel(),
                offsets.len()
            ))
            .on_rank(*device as usize));
        }
        let key = if sharding.partial.is_empty() { vec![members.len()] } else { replica_key(sharding, mesh, *device)? };
        let at = match replicas.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                replicas.push((key, vec![None; n]));
                members.push(*device);
                replicas.len() - 1
            }
        };
        let values = &mut replicas[at].1;
        for (&o, &v) in offsets.iter().zip(&piece.data) {
            values[o] = Some(values[o].map_or(v, |acc| combine_as(piece.dtype, sharding.reduce, acc, v)));
        }
    }
    let mut data = vec![0.0; n];
    let mut owner: Vec<Option<i64>> = vec![None; n];
    for ((_, values), &device) in replicas.iter().zip(&members) {
        for (o, v) in values.iter().enumerate() {
            let Some(v) = *v else { continue };
            match owner[o] {
                None => {
                    data[o] = v;
                    owner[o] = Some(device);
                }
                Some(first) if data[o] != v && !(data[o].is_nan() && v.is_nan()) => {
                    let what = if sharding.partial.is_empty() { "replicated output" } else { "partial output reduced" };
                    return Err(RtError::new(format!(
                        "{what} differs between device {first} ({}) and device {device} ({v}) at element {:?}",
                        data[o],
                        multi_index(o, shape)
                    )));
                }
                Some(_) => {}
            }
        }
    }
    if let Some(missing) = owner.iter().position(Option::is_none) {
        return Err(RtError::new(format!("no device holds element {missing} of the output")));
    }
    Ok(HostTensor { dtype, shape: shape.to_vec(), data })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_dialects::reduction::ReductionKind;

    fn sharding(axes: Vec<Vec<Split>>) -> Sharding {
        Sharding { mesh: "tp".into(), axes, partial: vec![], reduce: Default::default() }
    }

    #[test]
    fn non_finite_values_must_match_exactly() {
        let t = |data: Vec<f64>| HostTensor { dtype: DType::F32, shape: vec![data.len()], data };
        let reference = t(vec![1.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]);
        assert_eq!(t(vec![1.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]).rel_error(&reference).unwrap(), 0.0);
        for wrong in [
            vec![1.0, f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NAN],
            vec![1.0, 3.0e38, f64::NEG_INFINITY, f64::NAN],
            vec![1.0, f64::INFINITY, f64::NEG_INFINITY, 0.0],
            vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::NAN],
        ] {
            assert_eq!(t(wrong.clone()).rel_error(&reference).unwrap(), f64::INFINITY, "{wrong:?}");
        }
        assert!(
            (t(vec![1.5, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]).rel_error(&reference).unwrap() - 0.5).abs()
                < 1e-12
        );
    }

    #[test]
    fn multi_index_is_row_major() {
        assert_eq!(multi_index(0, &[2, 3]), vec![0, 0]);
        assert_eq!(multi_index(5, &[2, 3]), vec![1, 2]);
        assert_eq!(multi_index(7, &[2, 2, 2]), vec![1, 1, 1]);
        assert_eq!(multi_index(0, &[]), Vec::<usize>::new());
    }

    #[test]
    fn random_is_seeded_and_rounded() {
        let a = HostTensor::random(DType::BF16, &[4, 4], 7);
        assert_eq!(a, HostTensor::random(DType::BF16, &[4, 4], 7));
        assert_ne!(a, HostTensor::random(DType::BF16, &[4, 4], 8));
        assert!(a.data.iter().all(|&v| (-1.0..1.0).contains(&v) && round_to(DType::BF16, v) == v));
    }

    #[test]
    fn device_split_pieces_round_trip() {
        let mesh = Mesh::linear("tp", &[0, 1, 2, 3]);
        let g = HostTensor::random(DType::F32, &[6, 8], 1);
        let s = sharding(vec![vec![Split::Stream(3)], vec![Split::Device(DeviceAxis::X)]]);
        let pieces: Vec<(i64, HostTensor)> = (0..4).map(|d| (d, local_piece(&g, &s, &mesh, d).unwrap())).collect();
        assert_eq!(pieces[1].1.shape, vec![6, 2]);
        assert_eq!(pieces[1].1.data[0], g.data[2]);
        assert_eq!(gather_global(&pieces, &[6, 8], &s, &mesh).unwrap(), g);
    }

    #[test]
    fn stream_outer_device_inner_holds_strided_rows() {
        let mesh = Mesh::linear("tp", &[0, 1]);
        let g = HostTensor::new(DType::F64, vec![8], (0..8).map(f64::from).collect()).unwrap();
        let s = sharding(vec![vec![Split::Stream(2), Split::Device(DeviceAxis::X)]]);
        assert_eq!(local_piece(&g, &s, &mesh, 1).unwrap().data, vec![2.0, 3.0, 6.0, 7.0]);
    }

    #[test]
    fn replicated_gather_checks_agreement_and_partial_sums() {
        let mesh = Mesh::linear("tp", &[0, 1]);
        let s = sharding(vec![vec![]]);
        let a = HostTensor::new(DType::F32, vec![2], vec![1.0, 2.0]).unwrap();
        let mut b = a.clone();
        assert_eq!(gather_global(&[(0, a.clone()), (1, b.clone())], &[2], &s, &mesh).unwrap(), a);
        b.data[1] = 3.0;
        assert!(gather_global(&[(0, a.clone()), (1, b.clone())], &[2], &s, &mesh).is_err());
        let mut p = s.clone();
        p.partial = vec![DeviceAxis::X];
        assert_eq!(gather_global(&[(0, a.clone()), (1, b.clone())], &[2], &p, &mesh).unwrap().data, vec![2.0, 5.0]);
        p.reduce = ReductionKind::Max;
        assert_eq!(gather_global(&[(0, a.clone()), (1, b)], &[2], &p, &mesh).unwrap().data, vec![1.0, 3.0]);
    }

    /// Meshes and shardings of partial values: one partial axis; a partial axis next to a data
    /// split; two partial axes; a partial axis replicated along another.
    fn partial_layouts() -> Vec<(Mesh, Sharding)> {
        let (x, y) = (DeviceAxis::X, DeviceAxis::Y);
        let grid = |rows: i64, cols: i64| Mesh {
            name: "tp".into(),
            shape: vec![rows, cols],
            devices: (0..rows * cols).collect(),
        };
        let with = |axes: Vec<Vec<Split>>, partial: Vec<DeviceAxis>| Sharding { partial, ..sharding(axes) };
        vec![
            (Mesh::linear("tp", &[0, 1, 2, 3]), with(vec![vec![], vec![]], vec![x])),
            (grid(2, 3), with(vec![vec![Split::Device(y)], vec![]], vec![x])),
            (grid(2, 2), with(vec![vec![], vec![Split::Stream(2)]], vec![x, y])),
            (grid(3, 2), with(vec![vec![], vec![]], vec![y])),
        ]
    }

    #[test]
    fn partial_pieces_recombine_under_every_reduction_and_dtype() {
        for kind in ReductionKind::ALL {
            for dtype in DType::ALL {
                for (mesh, layout) in partial_layouts() {
                    let s = Sharding { reduce: kind, ..layout };
                    let g = HostTensor::random(dtype, &[6, 4], 17);
                    let pieces: Vec<(i64, HostTensor)> =
                        mesh.devices.iter().map(|&d| (d, local_piece(&g, &s, &mesh, d).unwrap())).collect();
                    let what =
                        format!("{} of {} over {:?} partial {:?}", kind.keyword(), dtype.name(), mesh.shape, s.partial);
                    assert_eq!(gather_global(&pieces, &g.shape, &s, &mesh).unwrap(), g, "{what}");
                    // The shards really differ from the value: not copies, not value and neutral
                    // (a boolean has no other split).
                    if dtype == DType::I1 {
                        continue;
                    }
                    let copies = pieces.iter().filter(|(_, p)| p.data == g.data[..p.numel()]).count();
                    assert!(copies < pieces.len(), "{what}: every device holds the value");
                    let differing = pieces[0].1.data.iter().zip(&g.data).filter(|(a, b)| a != b).count();
                    assert!(differing > 0, "{what}: device 0 holds the value whole");
                }
            }
        }
    }

    #[test]
    fn partial_shards_depend_on_the_element_not_on_the_device_asking() {
        // Devices of one replica group draw the same split; another replica group too.
        let (mesh, layout) = partial_layouts().swap_remove(3);
        let s = Sharding { reduce: ReductionKind::Sum, ..layout };
        let g = HostTensor::random(DType::F32, &[6, 4], 2);
        let piece = |d: i64| local_piece(&g, &s, &mesh, d).unwrap();
        // Mesh 3x2, partial over DIDy (the rows): devices 0 and 1 differ along DIDx only, so
        // they are replicas and hold the same shard.
        assert_eq!(piece(0), piece(1));
        assert_ne!(piece(0), piece(2));
        let mut pieces: Vec<(i64, HostTensor)> = mesh.devices.iter().map(|&d| (d, piece(d))).collect();
        pieces[1].1.data[3] += 1.0;
        let e = gather_global(&pieces, &g.shape, &s, &mesh).unwrap_err().to_string();
        assert!(e.contains("partial output reduced differs between device 0"), "{e}");
    }
}
