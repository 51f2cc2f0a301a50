//! Where each device axis of a sharding lives, and which device axes two shardings disagree
//! on: the analysis behind "is this op local or a resharding point".
//!
//! Stream splits never count: they schedule work in host loops and do not change what a rank
//! holds.

use fuser_dialects::fusion::{DeviceAxis, Sharding, Split};

/// Where a device axis is used by a sharding.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// Splits this tensor axis.
    Axis(usize),
    /// A pending reduction over it.
    Partial,
    /// Not used: replicated over it.
    Replicated,
}

/// Where device axis `d` lives in `s`.
pub fn place_of(s: &Sharding, d: DeviceAxis) -> Place {
    if s.partial.contains(&d) {
        return Place::Partial;
    }
    match s.axes.iter().position(|l| l.contains(&Split::Device(d))) {
        Some(a) => Place::Axis(a),
        None => Place::Replicated,
    }
}

/// The device axes placed differently by `a` and `b`.
pub fn changed_device_axes(a: &Sharding, b: &Sharding) -> Vec<DeviceAxis> {
    DeviceAxis::ALL.into_iter().filter(|&d| place_of(a, d) != place_of(b, d)).collect()
}

/// The device axes `a` → `b` changes, or the diagnostic message when there is more than one
/// (a resharding point moves one device axis at a time).
pub fn single_changed_axis(a: &Sharding, b: &Sharding) -> Result<Option<DeviceAxis>, String> {
    match changed_device_axes(a, b).as_slice() {
        [] => Ok(None),
        [d] => Ok(Some(*d)),
        many => Err(format!(
            "resharding changes {} device axes ({}); split it into one fusion.set per device axis",
            many.len(),
            many.iter().map(|d| d.keyword()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Whether `a` and `b` hold the same local data on every rank: same device splits in the same
/// order on every axis, same partial axes.
pub fn same_device_layout(a: &Sharding, b: &Sharding) -> bool {
    a.axes.len() == b.axes.len()
        && a.axes.iter().zip(&b.axes).all(|(x, y)| device_splits(x) == device_splits(y))
        && sorted(&a.partial) == sorted(&b.partial)
}

/// The device splits of one axis, in order.
pub fn device_splits(l: &[Split]) -> Vec<Split> {
    l.iter().copied().filter(|s| matches!(s, Split::Device(_))).collect()
}

/// The stream splits of one axis, in order.
pub fn stream_splits(l: &[Split]) -> Vec<Split> {
    l.iter().copied().filter(|s| matches!(s, Split::Stream(_))).collect()
}

fn sorted(v: &[DeviceAxis]) -> Vec<DeviceAxis> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// `streams`' stream splits (per axis) followed by `devices`' device splits and partial axes:
/// the sharding a value gets when its device layout must change but its stream schedule must not.
pub fn with_device_layout_of(streams: &Sharding, devices: &Sharding) -> Sharding {
    let axes = streams
        .axes
        .iter()
        .zip(&devices.axes)
        .map(|(s, d)| {
            let mut l = stream_splits(s);
            l.extend(device_splits(d));
            l
        })
        .collect();
    Sharding { mesh: devices.mesh.clone(), axes, partial: devices.partial.clone(), reduce: devices.reduce }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(axes: Vec<Vec<Split>>, partial: Vec<DeviceAxis>) -> Sharding {
        Sharding { mesh: "tp".into(), axes, partial, reduce: Default::default() }
    }

    #[test]
    fn places_and_changes() {
        let x = Split::Device(DeviceAxis::X);
        let a = sh(vec![vec![Split::Stream(3), x], vec![]], vec![]);
        let b = sh(vec![vec![Split::Stream(3)], vec![]], vec![DeviceAxis::X]);
        assert_eq!(place_of(&a, DeviceAxis::X), Place::Axis(0));
        assert_eq!(place_of(&b, DeviceAxis::X), Place::Partial);
        assert_eq!(place_of(&a, DeviceAxis::Y), Place::Replicated);
        assert_eq!(changed_device_axes(&a, &b), vec![DeviceAxis::X]);
        assert!(!same_device_layout(&a, &b));
        let c = sh(vec![vec![x], vec![Split::Stream(2)]], vec![]);
        assert!(same_device_layout(&a, &c));
        let merged = with_device_layout_of(&c, &b);
        assert_eq!(merged.axes, vec![vec![], vec![Split::Stream(2)]]);
        assert_eq!(merged.partial, vec![DeviceAxis::X]);
    }
}
