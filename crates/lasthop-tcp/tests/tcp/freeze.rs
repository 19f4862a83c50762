//! Freeze-TCP's receiver (Goff et al. 2000; elaarag-002.md Sec. 1.15 and
//! FREEZE-4) against a sender, segment by segment: the zero-window
//! advertisement, which the BSD window rule takes only on an ack of new
//! data, and the three reconnection acks that end the sender's persist.

use crate::common;
use lasthop_core::packet::TcpHeader;
use lasthop_core::trace::Trace;
use lasthop_core::Time;
use lasthop_tcp::receiver::TR_ACKS;
use lasthop_tcp::{AckPolicy, Receiver, ReceiverConfig, Sender, WindowUpdate};

const MSS: u64 = 1000;

struct Pair {
    s: Sender,
    r: Receiver,
    trace: Trace,
}

impl Pair {
    fn new(rule: WindowUpdate) -> Pair {
        let (s, trace) = common::reno_sender(MSS as u32, 4, rule);
        let r = Receiver::new(ReceiverConfig::plain(64_000, MSS as u32, AckPolicy::Immediate));
        Pair { s, r, trace }
    }

    fn segments(&mut self, t_ms: u64) -> Vec<TcpHeader> {
        let now = Time::from_ms(t_ms);
        std::iter::from_fn(|| self.s.poll_transmit(now, &mut self.trace)).collect()
    }

    fn acks(&mut self, t_ms: u64) -> Vec<TcpHeader> {
        let now = Time::from_ms(t_ms);
        std::iter::from_fn(|| self.r.poll_transmit(now)).collect()
    }

    /// Segments reach the receiver at `t_ms`; its acks.
    fn deliver(&mut self, t_ms: u64, segs: &[TcpHeader]) -> Vec<TcpHeader> {
        let mut acks = Vec::new();
        for h in segs {
            self.r.on_segment(Time::from_ms(t_ms), h);
            acks.extend(self.acks(t_ms));
        }
        acks
    }

    /// Acks reach the sender at `t_ms`; what it sends.
    fn answer(&mut self, t_ms: u64, acks: &[TcpHeader]) -> Vec<TcpHeader> {
        for a in acks {
            self.s.on_ack(Time::from_ms(t_ms), a, &mut self.trace);
        }
        self.segments(t_ms)
    }
}

/// FREEZE-4: the freeze's first advertisement is a window update on a
/// duplicate ack: BSD's rule ignores it (the sender goes on), every-ack's
/// takes it (persist). The zero window riding on the next ack of new data
/// is taken under both.
#[test]
fn freeze_4_a_zero_window_update_is_believed_on_new_data_only_under_bsd() {
    for (rule, persists_at_once) in [(WindowUpdate::Bsd, false), (WindowUpdate::Latest, true)] {
        let mut p = Pair::new(rule);
        let first = p.segments(0);
        assert_eq!(first.len(), 4);
        let acks = p.deliver(50, &first[..2]);
        let more = p.answer(100, &acks);
        assert!(!more.is_empty(), "{rule:?}: the window opened");
        p.r.freeze_window();
        let zwa = p.acks(110);
        assert_eq!(zwa.len(), 1, "{rule:?}: one window update at once");
        assert_eq!((zwa[0].ack, zwa[0].wnd_bytes), (2 * MSS, 0), "{rule:?}: the same ack, a zero window");
        p.answer(160, &zwa);
        assert_eq!(p.s.persisting(), persists_at_once, "{rule:?}");
        // The rest of the first window arrives: its acks carry the zero window.
        let acks = p.deliver(170, &first[2..]);
        assert!(acks.iter().all(|a| a.wnd_bytes == 0), "{rule:?}");
        assert!(p.answer(220, &acks).is_empty(), "{rule:?}: nothing more is sent");
        assert!(p.s.persisting(), "{rule:?}: an ack of new data with a zero window is taken");
    }
}

/// Thawed, the receiver sends three acks of what it has, the window open:
/// the first ends the sender's persist, and sending resumes at once from
/// `snd_una`, the congestion window as it was before the freeze, no
/// timeout.
#[test]
fn the_three_reconnection_acks_end_persist_with_the_window_as_it_was() {
    let mut p = Pair::new(WindowUpdate::Bsd);
    let first = p.segments(0);
    let acks = p.deliver(50, &first);
    let second = p.answer(100, &acks);
    p.r.freeze_window();
    let zwa = p.acks(110);
    p.answer(160, &zwa);
    let acks = p.deliver(150, &second);
    assert!(p.answer(200, &acks).is_empty());
    assert!(p.s.persisting());
    let (cwnd, ssthresh, una) = (p.s.cwnd_bytes(), p.s.ssthresh_bytes(), p.s.snd_una());
    assert!(p.r.window_frozen());
    p.r.unfreeze_window();
    assert!(!p.r.window_frozen());
    let tr = p.acks(3_000);
    assert_eq!(tr.len(), TR_ACKS as usize);
    assert!(tr.iter().all(|a| a.ack == una && a.wnd_bytes == 64_000), "{tr:?}");
    p.r.unfreeze_window(); // not frozen: nothing
    assert!(p.acks(3_000).is_empty());
    let resumed = p.answer(3_050, &tr[..1]);
    assert!(!p.s.persisting());
    assert_eq!(resumed.first().map(|h| h.seq), Some(una), "from snd_una, at once");
    assert_eq!(resumed.len() as u64, cwnd / MSS, "a full window: cwnd as it was");
    assert_eq!((p.s.cwnd_bytes(), p.s.ssthresh_bytes()), (cwnd, ssthresh));
    p.answer(3_050, &tr[1..]);
    assert_eq!(p.s.stats().timeouts, 0);
}

/// FRHO-5 (elaarag-002.md Sec. 4 and Sec. 1.8; Caceres and Iftode 1995):
/// the acks a mobile host sends when told its handoff is complete are three
/// duplicates: each acknowledges what it has (`rcv_nxt`), with the window
/// unchanged and no data, so the sender counts them and fast-retransmits.
/// An ack owed for data (a delayed ack) goes first, and is not one of them.
#[test]
fn frho_5_the_handoff_acks_are_three_true_duplicates() {
    // Immediate acks: nothing owed, three acks.
    let mut p = Pair::new(WindowUpdate::Bsd);
    let segs = p.segments(0);
    assert_eq!(segs.len(), 4);
    // The first two arrive, the rest are lost in the handoff.
    let acks = p.deliver(10, &segs[..2]);
    assert_eq!(acks.len(), 2);
    let last = acks[1];
    p.r.send_duplicate_acks(3);
    let dups = p.acks(200);
    assert_eq!(dups.len(), 3);
    for d in &dups {
        assert_eq!((d.ack, d.wnd_bytes, d.len), (last.ack, last.wnd_bytes, 0), "{d:?}");
    }
    // The sender took the first two acks; the three duplicates make it
    // fast-retransmit the first lost segment.
    p.answer(20, &acks);
    let out = p.answer(200, &dups);
    assert_eq!(out.first().map(|h| h.seq), Some(2 * MSS), "{out:?}");
    assert_eq!(p.s.stats().fast_retransmits, 1);

    // Delayed acks (every second segment): one segment arrives and its ack
    // is owed; it goes first, then the three duplicates of it.
    let (s, trace) = common::reno_sender(MSS as u32, 4, WindowUpdate::Bsd);
    let policy = AckPolicy::BsdDelayed { every_segments: 2, tick_ns: 200_000_000, tick_phase_ns: 0 };
    let r = Receiver::new(ReceiverConfig::plain(64_000, MSS as u32, policy));
    let mut p = Pair { s, r, trace };
    let segs = p.segments(0);
    assert!(p.deliver(10, &segs[..1]).is_empty(), "the ack is delayed");
    p.r.send_duplicate_acks(3);
    let acks = p.acks(20);
    assert_eq!(acks.len(), 4);
    assert!(acks.iter().all(|a| a.ack == MSS && a.len == 0 && a.wnd_bytes == acks[0].wnd_bytes), "{acks:?}");
    p.answer(30, &acks);
    assert_eq!(p.s.stats().fast_retransmits, 1, "the three after the owed one are duplicates");
}
