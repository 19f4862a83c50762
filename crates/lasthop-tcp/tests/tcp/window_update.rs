//! Which acks' windows the sender takes (elaarag-002.md F1), as a timeline
//! under both rules: 4.4BSD's (RFC 793's SND.WL1/SND.WL2 test with BSD's
//! refinement) and every ack's.

use crate::common;
use lasthop_core::packet::TcpHeader;
use lasthop_core::trace::Trace;
use lasthop_core::Time;
use lasthop_tcp::{Sender, SenderConfig, WindowUpdate};

const MSS: u64 = 1000;

/// The window the sender uses after each ack: how far past `snd_una` it
/// sends with a large cwnd.
fn windows(rule: WindowUpdate, acks: &[(u64, u32)]) -> Vec<u64> {
    let (mut s, mut trace) = common::reno_sender(MSS as u32, 64, rule);
    let mut out = Vec::new();
    for (i, &(ack, wnd)) in acks.iter().enumerate() {
        let now = Time::from_ms(10 * (i as u64 + 1));
        s.on_ack(now, &TcpHeader { ack, wnd_bytes: wnd, ..TcpHeader::default() }, &mut trace);
        while s.poll_transmit(now, &mut trace).is_some() {}
        out.push(s.snd_max() - s.snd_una());
    }
    out
}

/// A zero window on a duplicate ack shrinks nothing under BSD's rule: no
/// persist. On an ack of new data it is taken: persist. (Why M-TCP's
/// supervisor host withholds the last byte: its zero-window ack must
/// acknowledge something new to be believed, elaarag-002.md F1.)
#[test]
fn a_zero_window_is_believed_on_a_newer_ack_only_under_bsd() {
    let persisting = |rule: WindowUpdate, acks: &[(u64, u32)]| {
        let cfg = SenderConfig { initial_cwnd_segments: 64, window_update: rule, ..SenderConfig::reno(MSS as u32) };
        let mut trace = Trace::new(false);
        let mut s = Sender::new(cfg, 0);
        s.start(Time::ZERO, &mut trace);
        acks.iter()
            .enumerate()
            .map(|(i, &(ack, wnd))| {
                let now = Time::from_ms(10 * (i as u64 + 1));
                s.on_ack(now, &TcpHeader { ack, wnd_bytes: wnd, ..TcpHeader::default() }, &mut trace);
                while s.poll_transmit(now, &mut trace).is_some() {}
                s.persisting()
            })
            .collect::<Vec<bool>>()
    };
    let dup_zero = [(0, 8000), (4000, 8000), (4000, 0)];
    assert_eq!(persisting(WindowUpdate::Bsd, &dup_zero), [false, false, false]);
    assert_eq!(persisting(WindowUpdate::Latest, &dup_zero), [false, false, true]);
    let new_zero = [(0, 8000), (4000, 8000), (5000, 0)];
    assert_eq!(persisting(WindowUpdate::Bsd, &new_zero), [false, false, true]);
    assert_eq!(persisting(WindowUpdate::Latest, &new_zero), [false, false, true]);
    // A duplicate that opens the window is believed: persist ends.
    let reopen = [(0, 8000), (5000, 0), (5000, 4000)];
    assert_eq!(persisting(WindowUpdate::Bsd, &reopen), [false, true, false]);
}

/// The rules differ on what is sent next: a late older ack with a larger
/// window lets `latest` send beyond what the newest ack allowed.
#[test]
fn a_late_older_ack_opens_the_window_only_under_latest() {
    let acks = [(0, 2000), (2000, 2000), (1000, 8000)];
    assert_eq!(windows(WindowUpdate::Bsd, &acks), [2000, 2000, 2000]);
    assert_eq!(windows(WindowUpdate::Latest, &acks), [2000, 2000, 8000]);
}
