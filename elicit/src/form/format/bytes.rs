//! The byte-level tools of the fast paths: sets of ASCII bytes and runs of a set.

/// A set of ASCII bytes, for one table lookup per byte.
pub(super) struct ByteSet([bool; 256]);

impl ByteSet {
    /// The union of `groups`.
    pub(super) const fn of(groups: &[&[u8]]) -> ByteSet {
        let mut set = [false; 256];
        let mut g = 0;
        while g < groups.len() {
            let mut i = 0;
            while i < groups[g].len() {
                set[groups[g][i] as usize] = true;
                i += 1;
            }
            g += 1;
        }
        ByteSet(set)
    }

    pub(super) fn contains(&self, byte: u8) -> bool {
        self.0[byte as usize]
    }
}

pub(super) const DIGITS: &[u8] = b"0123456789";
pub(super) const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// From `i`, the index of the first byte not in `set` (the length when there is none). The
/// loop the fast paths spend their time in: table lookups, one branch per four bytes.
pub(super) fn run_in(bytes: &[u8], mut i: usize, set: &ByteSet) -> usize {
    // Four bytes a step while all four are in: one branch for four lookups.
    while let Some(&[a, b, c, d]) = bytes.get(i..i + 4) {
        if !(set.contains(a) & set.contains(b) & set.contains(c) & set.contains(d)) {
            break;
        }
        i += 4;
    }
    while i < bytes.len() && set.contains(bytes[i]) {
        i += 1;
    }
    i
}
