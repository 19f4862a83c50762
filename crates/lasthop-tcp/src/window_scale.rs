//! The window-scale shift a receiver requests for its socket buffer (RFC
//! 7323 Sec. 2), which bounds a 4.4BSD sender's window
//! ([`crate::config::CwndBound::MaxWindow`]) and scales the window field of
//! a capture's segments (`lasthop-sim`'s pcap writer).
//!
//! 4.4BSD-Lite `tcp_usrreq.c` (`PRU_CONNECT`) and `tcp_input.c` (on a SYN)
//! pick the smallest shift whose scaled maximum holds the buffer:
//! `while (tp->request_r_scale < TCP_MAX_WINSHIFT && (TCP_MAXWIN <<
//! tp->request_r_scale) < so->so_rcv.sb_hiwat) tp->request_r_scale++;`.
//! RFC 7323 Sec. 2.3 caps the shift at 14.

/// The largest unscaled window, `TCP_MAXWIN`.
pub const MAX_WINDOW: u64 = 65_535;

/// RFC 7323 Sec. 2.3: "the shift count ... is limited to 14".
pub const MAX_SHIFT: u8 = 14;

/// The shift a receiver with a `buffer_bytes` socket buffer requests.
pub fn shift_for(buffer_bytes: u64) -> u8 {
    let mut shift = 0;
    while shift < MAX_SHIFT && (MAX_WINDOW << shift) < buffer_bytes {
        shift += 1;
    }
    shift
}

/// The largest window a peer with that buffer can advertise: `TCP_MAXWIN <<
/// shift`.
pub fn max_window(buffer_bytes: u64) -> u64 {
    MAX_WINDOW << shift_for(buffer_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_shift_that_holds_the_buffer() {
        assert_eq!(shift_for(8192), 0);
        assert_eq!(shift_for(65_535), 0);
        assert_eq!(shift_for(65_536), 1, "65535 < 65536");
        // 65535 << 4 = 1,048,560 < 1 MiB: a 1 MiB buffer needs 5.
        assert_eq!(shift_for(1 << 20), 5);
        assert_eq!(max_window(1 << 20), 2_097_120);
        assert_eq!(shift_for(u64::MAX), MAX_SHIFT);
    }
}
