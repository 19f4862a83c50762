//! WAP's lower stack (WAP Forum, WAP 1.x) as lasthop models it, through the
//! survey (seed 002, ElAarag 2002, Sec. 5.3, marked \[S\]) and the close
//! reading `elaarag-002.md` Sec. 1.13; the WAP 1.x specifications could not
//! be read from here (\[K\]), timer constants are the Kannel gateway's as
//! the reading quotes them (\[C:kannel\]), the rest is lasthop's (\[I\]).
//!
//! \[S\] Applications talk to a gateway at the wireless/Internet boundary,
//! which speaks a wireless stack toward the handset: WAE, WSP (session),
//! WTP (transaction), WTLS (security), WDP (datagram). Here:
//!
//! - WDP is the caller's: datagrams between the handset and the gateway
//!   (UDP over IP, \[K\]); every PDU below says its size in bytes
//!   ([`wtp::Payload::bytes`], [`wtp::Pdu::wire_bytes`]) so a caller can
//!   count the wireless bytes.
//! - [`wtp`]: the Wireless Transaction Protocol, classes 0, 1 and 2, an
//!   initiator and a responder, retransmission and abort.
//! - [`wsp`]: the Wireless Session Protocol's connection mode over WTP,
//!   minimal: connect, a method (a page fetch), suspend, resume,
//!   disconnect.
//!
//! WTLS and the encoders are not modelled here (the reading's \[I\]: per-PDU
//! overhead bytes and a content size factor, the workload's business).
//!
//! Both modules are sans-IO, as the rest of the crate: no clock, no
//! scheduler, `now` passed in; a side says when it next needs the time
//! (`deadline`) and the caller calls `on_timer(now)` then; PDUs to send
//! queue up for the caller (`pop_pdu`), what to hand up likewise
//! (`pop_event`). No dynamic dispatch.

pub mod wsp;
pub mod wtp;
