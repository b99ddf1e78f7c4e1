//! XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha, the AEAD of RFC 8439 §2.8 over XChaCha20),
//! encrypting in place with the tag apart: what a sealed token is made with.
//!
//! Built from two well-kept primitives rather than RustCrypto's `chacha20poly1305`, whose output
//! it gives byte for byte (a test holds it to that, on random keys, nonces and lengths): the
//! stream is RustCrypto's `XChaCha20`, the authenticator the portable Poly1305 of rust-bitcoin's
//! `chacha20-poly1305`. RustCrypto's `poly1305` picks its AVX2 backend on any CPU that has AVX2,
//! and on the short messages tokens are that backend is the slow one: its key schedule is made
//! for long messages, and its helpers call the AVX2 intrinsics out of line. Opening 120 bytes
//! took 1.6 µs through `chacha20poly1305` and takes 0.75 µs here (300 bytes: 1.7 and 1.0 µs;
//! `benches/README.md` has the measurement). Only a build-wide `--cfg` chooses that crate's
//! backend, which a library cannot set for its users.

use chacha20::XChaCha20;
use chacha20::cipher::{KeyIvInit, StreamCipher};
use chacha20_poly1305::poly1305::Poly1305;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// The key's length.
pub(super) const KEY_BYTES: usize = 32;
/// The nonce's length.
pub(super) const NONCE_BYTES: usize = 24;
/// The tag's length.
pub(super) const TAG_BYTES: usize = 16;

/// The keystream's first block is the Poly1305 key's source; the message is encrypted from the
/// second on (RFC 8439 §2.6, §2.8).
const BLOCK_BYTES: usize = 64;

/// One key of XChaCha20-Poly1305, wiped from memory when dropped (a keyring lives as long as
/// its server, but a replaced one should not leave its keys in freed memory).
#[derive(Clone)]
pub(super) struct XChaCha20Poly1305 {
    key: Zeroizing<[u8; KEY_BYTES]>,
}

/// Why a message was not sealed or opened. Opening refuses a wrong tag (another key, another
/// nonce, other associated data, a changed byte); sealing refuses a message longer than the
/// keystream (256 GiB).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refused;

impl XChaCha20Poly1305 {
    pub fn new(key: Zeroizing<[u8; KEY_BYTES]>) -> Self {
        XChaCha20Poly1305 { key }
    }

    /// Encrypts `message` where it lies and returns the tag that authenticates it with `aad`.
    pub fn encrypt(
        &self,
        nonce: &[u8; NONCE_BYTES],
        aad: &[u8],
        message: &mut [u8],
    ) -> Result<[u8; TAG_BYTES], Refused> {
        let (mut stream, mac) = self.keyed(nonce);
        stream.try_apply_keystream(message).map_err(|_| Refused)?;
        Ok(tag(mac, aad, message))
    }

    /// Decrypts `message` where it lies, if `tag` authenticates it with `aad`; left as it came
    /// otherwise.
    pub fn decrypt(
        &self,
        nonce: &[u8; NONCE_BYTES],
        aad: &[u8],
        message: &mut [u8],
        expected: &[u8; TAG_BYTES],
    ) -> Result<(), Refused> {
        let (mut stream, mac) = self.keyed(nonce);
        let computed = tag(mac, aad, message);
        if !bool::from(computed.ct_eq(expected)) {
            return Err(Refused);
        }
        stream.try_apply_keystream(message).map_err(|_| Refused)
    }

    /// The stream for `nonce`, positioned at its second block, and the one-time authenticator
    /// keyed by its first. The stream wipes its state when dropped (chacha20's `zeroize`), and
    /// the block and the key taken from it are wiped here; the copy of that one-time key inside
    /// rust-bitcoin's `Poly1305` is not (it has no wipe), and is good for this nonce alone.
    fn keyed(&self, nonce: &[u8; NONCE_BYTES]) -> (XChaCha20, Poly1305) {
        let mut stream = XChaCha20::new((&*self.key).into(), &(*nonce).into());
        let mut first = Zeroizing::new([0u8; BLOCK_BYTES]);
        stream.apply_keystream(&mut *first);
        let mut mac_key = Zeroizing::new([0u8; KEY_BYTES]);
        mac_key.copy_from_slice(&first[..KEY_BYTES]);
        (stream, Poly1305::new(*mac_key))
    }
}

/// RFC 8439 §2.8: the associated data and the ciphertext, each padded to 16 bytes, then both
/// lengths, little-endian.
fn tag(mut mac: Poly1305, aad: &[u8], ciphertext: &[u8]) -> [u8; TAG_BYTES] {
    const PADDING: [u8; 16] = [0; 16];
    for part in [aad, ciphertext] {
        mac.input(part);
        let overflow = part.len() % 16;
        if overflow != 0 {
            mac.input(&PADDING[overflow..]);
        }
    }
    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(aad.len() as u64).to_le_bytes());
    lengths[8..].copy_from_slice(&(ciphertext.len() as u64).to_le_bytes());
    mac.input(&lengths);
    mac.tag()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::lower_hex;
    use chacha20poly1305::aead::{AeadInOut, KeyInit};

    /// RustCrypto's AEAD, the reference: the same bytes and tag for the same inputs.
    fn reference(key: [u8; 32]) -> chacha20poly1305::XChaCha20Poly1305 {
        chacha20poly1305::XChaCha20Poly1305::new(&key.into())
    }

    /// draft-irtf-cfrg-xchacha-03, Appendix A.3.1: the published test vector.
    #[test]
    fn the_drafts_test_vector() {
        let key: [u8; 32] = std::array::from_fn(|i| 0x80 + i as u8);
        let nonce: [u8; 24] = std::array::from_fn(|i| 0x40 + i as u8);
        let aad = [
            0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
        ];
        let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let mut message = plaintext.to_vec();
        let tag = XChaCha20Poly1305::new(Zeroizing::new(key))
            .encrypt(&nonce, &aad, &mut message)
            .unwrap();
        assert_eq!(
            lower_hex(&message[..16]),
            "bd6d179d3e83d43b9576579493c0e939",
            "the ciphertext's first bytes"
        );
        assert_eq!(lower_hex(&tag), "c0875924c1c7987947deafd8780acf49");
        XChaCha20Poly1305::new(Zeroizing::new(key))
            .decrypt(&nonce, &aad, &mut message, &tag)
            .unwrap();
        assert_eq!(message, plaintext);
    }

    proptest::proptest! {
        #[test]
        fn seals_and_opens_as_rustcryptos_aead_does(
            key: [u8; 32],
            nonce: [u8; 24],
            aad in proptest::collection::vec(proptest::num::u8::ANY, 0..100),
            plaintext in proptest::collection::vec(proptest::num::u8::ANY, 0..700),
            flip in proptest::num::usize::ANY,
        ) {
            let ours = XChaCha20Poly1305::new(Zeroizing::new(key));
            let mut sealed = plaintext.clone();
            let tag = ours.encrypt(&nonce, &aad, &mut sealed).unwrap();

            let mut expected = plaintext.clone();
            let expected_tag = reference(key)
                .encrypt_inout_detached(&nonce.into(), &aad, expected.as_mut_slice().into())
                .unwrap();
            proptest::prop_assert_eq!(&sealed, &expected);
            proptest::prop_assert_eq!(&tag[..], &expected_tag[..]);

            let mut opened = sealed.clone();
            ours.decrypt(&nonce, &aad, &mut opened, &tag).unwrap();
            proptest::prop_assert_eq!(&opened, &plaintext);

            // Any one bit changed, in the ciphertext, the tag or the associated data, refuses,
            // and leaves the message as it came.
            let bits = 8 * (sealed.len() + TAG_BYTES + aad.len());
            let bit = flip % bits;
            let (mut message, mut tag, mut aad) = (sealed.clone(), tag, aad.clone());
            let byte = bit / 8;
            let mask = 1u8 << (bit % 8);
            if byte < message.len() {
                message[byte] ^= mask;
            } else if byte < message.len() + TAG_BYTES {
                tag[byte - message.len()] ^= mask;
            } else {
                aad[byte - message.len() - TAG_BYTES] ^= mask;
            }
            let before = message.clone();
            proptest::prop_assert_eq!(ours.decrypt(&nonce, &aad, &mut message, &tag), Err(Refused));
            proptest::prop_assert_eq!(message, before);
        }
    }
}
