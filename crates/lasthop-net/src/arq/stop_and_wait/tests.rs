//! Stop-and-wait (seed 001 Sec. 5) through the family's interface alone:
//! no radio, no clock; the test carries frames and acks between the two
//! sides and plays the caller's timer, losing what it chooses. Frames are
//! plain numbers (the caller's handles).

use super::*;

const T0: Time = Time::ZERO;

/// The next frame `s` sends, put on the link at `now`.
fn transmit<S: ArqSender<u32>>(s: &mut S, now: Time) -> Send<u32> {
    let f = s.next(now).expect("a frame to send");
    s.on_transmit(now, f.seq);
    f
}

/// A new frame offered to `s` at `now`, sent, and received by `r` intact:
/// its number and the receiver's answer.
fn one_more<S: ArqSender<u32>>(s: &mut S, r: &mut Receiver, now: Time, frame: u32) -> (Seq, Receipt<Seq>) {
    let seq = s.offer(now, frame);
    let f = transmit(s, now);
    (seq, r.on_frame(now, f.seq, ()))
}

#[test]
fn a_frame_sent_and_acked_completes_and_the_bit_flips() {
    let (mut s, mut r) = (Sender::new(None), Receiver::new());
    assert!(s.has_room());
    assert_eq!(s.next(T0), None, "nothing to send");
    assert_eq!(s.offer(T0, 10), 0);
    assert!(!s.has_room(), "window 1");
    assert_eq!((s.in_flight(), s.holds(0)), (1, true));
    let f = transmit(&mut s, T0);
    assert_eq!(f, Send { seq: 0, frame: 10, retransmission: false });
    assert_eq!(s.next(Time(1)), None, "its ack is awaited");
    let got = r.on_frame(Time(5), f.seq, ());
    assert_eq!(got, Receipt { deliver: true, ack: 0 });
    assert_eq!(s.on_ack(Time(9), got.ack), 1);
    assert!(s.has_room());
    assert_eq!(s.in_flight(), 0);
    // The next frame has the other bit, and is new to the receiver.
    assert_eq!(one_more(&mut s, &mut r, Time(10), 11), (1, Receipt { deliver: true, ack: 1 }));
    assert_eq!(s.on_ack(Time(19), 1), 1);
}

#[test]
fn a_lost_frame_is_retransmitted_after_its_timeout() {
    let (mut s, mut r) = (Sender::new(None), Receiver::new());
    s.offer(T0, 10);
    transmit(&mut s, T0); // lost on the link: the receiver never sees it
    assert_eq!(s.on_timeout(Time(100)), Expiry::Resend);
    let f = transmit(&mut s, Time(100));
    assert_eq!(f, Send { seq: 0, frame: 10, retransmission: true });
    let got = r.on_frame(Time(105), f.seq, ());
    assert!(got.deliver, "the first copy the receiver gets is handed up");
    assert_eq!(s.on_ack(Time(109), got.ack), 1);
    assert_eq!(s.in_flight(), 0);
}

#[test]
fn a_copy_whose_ack_was_lost_is_acked_again_but_not_handed_up_twice() {
    let (mut s, mut r) = (Sender::new(None), Receiver::new());
    s.offer(T0, 10);
    let f = transmit(&mut s, T0);
    let first = r.on_frame(Time(5), f.seq, ());
    assert!(first.deliver);
    s.on_delivered(f.seq); // the simulator's knowledge: handed up
    assert_eq!((s.holds(f.seq), s.in_flight()), (false, 0), "its packet is no longer the sender's");
    // The ack is lost: the sender times out and sends the frame again.
    assert_eq!(s.on_timeout(Time(100)), Expiry::Resend);
    let again = transmit(&mut s, Time(100));
    assert_eq!(again, Send { seq: 0, frame: 10, retransmission: true });
    let second = r.on_frame(Time(105), again.seq, ());
    assert_eq!(second, Receipt { deliver: false, ack: 0 }, "acked, not handed up");
    assert_eq!(s.on_ack(Time(109), second.ack), 1);
    // The pair is still in step: the next frame is new to the receiver.
    assert_eq!(one_more(&mut s, &mut r, Time(110), 11), (1, Receipt { deliver: true, ack: 1 }));
}

#[test]
fn the_retry_limit_drops_a_frame_the_receiver_never_got() {
    // One retransmission allowed: the frame goes twice, then is dropped.
    let (mut s, mut r) = (Sender::new(Some(1)), Receiver::new());
    s.offer(T0, 10);
    transmit(&mut s, T0);
    assert_eq!(s.on_timeout(Time(100)), Expiry::Resend);
    assert!(transmit(&mut s, Time(100)).retransmission);
    assert_eq!(s.on_timeout(Time(200)), Expiry::Drop { frame: 10, cause: DropCause::RetryLimit });
    assert_eq!((s.has_room(), s.in_flight(), s.next(Time(200))), (true, 0, None));
    // The receiver still expects bit 0, and the next frame has it.
    assert_eq!(one_more(&mut s, &mut r, Time(300), 11), (0, Receipt { deliver: true, ack: 0 }));
}

#[test]
fn giving_up_on_a_frame_the_receiver_has_resynchronises_the_bit() {
    // No retransmission allowed; the frame arrives but its ack is lost.
    let (mut s, mut r) = (Sender::new(Some(0)), Receiver::new());
    let (seq, got) = one_more(&mut s, &mut r, T0, 10);
    assert!(got.deliver);
    s.on_delivered(seq);
    assert_eq!(s.on_timeout(Time(100)), Expiry::GaveUpDelivered { frame: 10 });
    // Without the resynchronisation the next frame would carry bit 0 and
    // be taken for a copy.
    assert_eq!(one_more(&mut s, &mut r, Time(200), 11), (1, Receipt { deliver: true, ack: 1 }));
}

#[test]
fn only_an_ack_for_the_frame_sent_completes_it_late_or_not() {
    let mut s = Sender::new(None);
    s.offer(T0, 10);
    assert_eq!(s.on_ack(T0, 0), 0, "not sent yet: an old ack of the same bit");
    transmit(&mut s, T0);
    assert_eq!(s.on_ack(Time(5), 1), 0, "the other bit: the previous frame's");
    // The wait timed out and the frame is due again; its ack comes late.
    assert_eq!(s.on_timeout(Time(100)), Expiry::Resend);
    assert_eq!(s.on_ack(Time(101), 0), 1);
    assert_eq!((s.next(Time(102)), s.in_flight()), (None, 0), "not sent again");
}
