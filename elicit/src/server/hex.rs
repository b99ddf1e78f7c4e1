//! Bytes written as lowercase hex: the nonces of sealed states, the page's browser ids and
//! tokens, the Redis store's hashed keys and step tokens. One string, two digits a byte, where
//! a `format!` for each byte made a string per byte.

/// `bytes` as lowercase hex, two digits a byte.
pub(crate) fn lower_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(2 * bytes.len());
    for &byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::lower_hex;

    #[test]
    fn every_byte_is_two_lowercase_digits_as_format_writes_them() {
        let bytes: Vec<u8> = (0..=255).collect();
        let by_format: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(lower_hex(&bytes), by_format);
        assert_eq!(lower_hex(&[]), "");
        assert_eq!(lower_hex(&[0x0f, 0xa0]), "0fa0");
    }
}
