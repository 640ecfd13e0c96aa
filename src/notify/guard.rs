//! Where user webhooks may point: http(s) URLs whose host is, or resolves only to,
//! globally reachable addresses, unless the operator allows internal ones
//! (`TILEPOST_WEBHOOK_ALLOW_PRIVATE`).
//!
//! What is internal follows the IANA special-purpose address registries (RFC 6890 and
//! its updates): every range that is not globally reachable, plus the ranges that are
//! not webhook destinations at all (multicast, documentation, benchmarking, ORCHIDs).
//! An IPv6 address that embeds or translates to an IPv4 address (IPv4-mapped,
//! IPv4-compatible, IPv4-translated, NAT64, 6to4) is judged by that IPv4 address;
//! Teredo addresses are refused (they tunnel to an obfuscated IPv4 address through a
//! relay of someone else's choosing), and so is any IPv6 address outside the global
//! unicast space `2000::/3`.
//!
//! The check runs when an endpoint is created ([`check_url`]) and again at every
//! delivery: an IP literal is judged before connecting ([`host_ip`]), and a name is
//! looked up by the connection's own resolver ([`Guarded`]), which drops internal
//! addresses, so the address a delivery connects to is the address that was checked
//! (a name that later resolves inside cannot be reached).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use futures_util::future::BoxFuture;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::Url;

/// IPv4 ranges a user webhook must not reach (IANA IPv4 special-purpose registry, and
/// multicast and the reserved class E). Looked up first to last: the limited broadcast
/// address comes before the reserved block that holds it.
const V4_RANGES: &[(Ipv4Addr, u8, &str)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8, "\"this network\" (RFC 791)"),
    (Ipv4Addr::new(10, 0, 0, 0), 8, "private-use (RFC 1918)"),
    (
        Ipv4Addr::new(100, 64, 0, 0),
        10,
        "shared address space (RFC 6598)",
    ),
    (Ipv4Addr::new(127, 0, 0, 0), 8, "loopback (RFC 1122)"),
    (Ipv4Addr::new(169, 254, 0, 0), 16, "link-local (RFC 3927)"),
    (Ipv4Addr::new(172, 16, 0, 0), 12, "private-use (RFC 1918)"),
    (
        Ipv4Addr::new(192, 0, 0, 0),
        24,
        "IETF protocol assignments (RFC 6890)",
    ),
    (Ipv4Addr::new(192, 0, 2, 0), 24, "documentation (RFC 5737)"),
    (
        Ipv4Addr::new(192, 88, 99, 0),
        24,
        "6to4 relay anycast (RFC 7526, deprecated)",
    ),
    (Ipv4Addr::new(192, 168, 0, 0), 16, "private-use (RFC 1918)"),
    (Ipv4Addr::new(198, 18, 0, 0), 15, "benchmarking (RFC 2544)"),
    (
        Ipv4Addr::new(198, 51, 100, 0),
        24,
        "documentation (RFC 5737)",
    ),
    (
        Ipv4Addr::new(203, 0, 113, 0),
        24,
        "documentation (RFC 5737)",
    ),
    (Ipv4Addr::new(224, 0, 0, 0), 4, "multicast (RFC 5771)"),
    (
        Ipv4Addr::new(255, 255, 255, 255),
        32,
        "limited broadcast (RFC 919)",
    ),
    (Ipv4Addr::new(240, 0, 0, 0), 4, "reserved (RFC 1112)"),
];

/// IPv6 ranges a user webhook must not reach (IANA IPv6 special-purpose registry, and the
/// deprecated and multicast blocks), after the forms that embed an IPv4 address were
/// judged by it. Looked up first to last: the named blocks inside `2001::/23` come
/// before it.
const V6_RANGES: &[(Ipv6Addr, u8, &str)] = &[
    (
        Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0),
        48,
        "local-use IPv4/IPv6 translation (RFC 8215)",
    ),
    (
        Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0),
        64,
        "discard-only (RFC 6666)",
    ),
    (
        Ipv6Addr::new(0x100, 0, 0, 1, 0, 0, 0, 0),
        64,
        "dummy prefix (RFC 9780)",
    ),
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        32,
        "Teredo (RFC 4380), a tunnel to an IPv4 address hidden in the address",
    ),
    (
        Ipv6Addr::new(0x2001, 2, 0, 0, 0, 0, 0, 0),
        48,
        "benchmarking (RFC 5180)",
    ),
    (
        Ipv6Addr::new(0x2001, 0x10, 0, 0, 0, 0, 0, 0),
        28,
        "ORCHID, an identifier that is not routable (RFC 4843)",
    ),
    (
        Ipv6Addr::new(0x2001, 0x20, 0, 0, 0, 0, 0, 0),
        28,
        "ORCHIDv2, an identifier that is not routable (RFC 7343)",
    ),
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        23,
        "IETF protocol assignments (RFC 2928)",
    ),
    (
        Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0),
        32,
        "documentation (RFC 3849)",
    ),
    (
        Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0),
        20,
        "documentation (RFC 9637)",
    ),
    (
        Ipv6Addr::new(0x5f00, 0, 0, 0, 0, 0, 0, 0),
        16,
        "segment routing SIDs (RFC 9602)",
    ),
    (
        Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0),
        7,
        "unique local (RFC 4193)",
    ),
    (
        Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0),
        10,
        "link-local (RFC 4291)",
    ),
    (
        Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0),
        10,
        "site-local (RFC 3879, deprecated)",
    ),
    (
        Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0),
        8,
        "multicast (RFC 4291)",
    ),
];

/// Why an address is refused: the range it belongs to, or, for an IPv6 address that
/// embeds an IPv4 address, the form and the range of that IPv4 address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Internal {
    pub ip: IpAddr,
    /// The IPv6 form (`IPv4-mapped`, `6to4`, ...) and the IPv4 address it embeds.
    pub embeds: Option<(&'static str, Ipv4Addr)>,
    /// The range, with the document that reserves it.
    pub range: &'static str,
}

impl fmt::Display for Internal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.embeds {
            Some((form, v4)) => write!(
                f,
                "{} is an {form} address of {v4}, which is {}",
                self.ip, self.range
            ),
            None => write!(f, "{} is {}", self.ip, self.range),
        }
    }
}

fn in_range(ip: u128, net: u128, len: u8, bits: u32) -> bool {
    let shift = bits - u32::from(len);
    (ip >> shift) == (net >> shift)
}

fn range_v4(ip: Ipv4Addr) -> Option<&'static str> {
    V4_RANGES
        .iter()
        .find(|(net, len, _)| in_range(u32::from(ip).into(), u32::from(*net).into(), *len, 32))
        .map(|(_, _, name)| *name)
}

/// The IPv4 address an IPv6 address stands for, with the name of its form.
fn embedded_v4(ip: Ipv6Addr) -> Option<(&'static str, Ipv4Addr)> {
    let s = ip.segments();
    let o = ip.octets();
    let last = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    match s {
        [0, 0, 0, 0, 0, 0xffff, ..] => Some(("IPv4-mapped (RFC 4291)", last)),
        [0, 0, 0, 0, 0, 0, ..] => Some(("IPv4-compatible (RFC 4291, deprecated)", last)),
        [0, 0, 0, 0, 0xffff, 0, ..] => Some(("IPv4-translated (RFC 2765)", last)),
        [0x64, 0xff9b, 0, 0, 0, 0, ..] => Some(("NAT64 (RFC 6052)", last)),
        [0x2002, ..] => Some(("6to4 (RFC 3056)", Ipv4Addr::new(o[2], o[3], o[4], o[5]))),
        _ => None,
    }
}

/// Why `ip` is internal, or None for a globally reachable address.
pub fn internal(ip: IpAddr) -> Option<Internal> {
    let plain = |range| {
        Some(Internal {
            ip,
            embeds: None,
            range,
        })
    };
    let v6 = match ip {
        IpAddr::V4(v4) => return range_v4(v4).and_then(plain),
        IpAddr::V6(v6) => v6,
    };
    // `::` and `::1` lie in the IPv4-compatible block; they are named for themselves
    if v6.is_unspecified() {
        return plain("unspecified (RFC 4291)");
    }
    if v6.is_loopback() {
        return plain("loopback (RFC 4291)");
    }
    if let Some((form, v4)) = embedded_v4(v6) {
        return range_v4(v4).map(|range| Internal {
            ip,
            embeds: Some((form, v4)),
            range,
        });
    }
    let bits = u128::from(v6);
    if let Some((_, _, name)) = V6_RANGES
        .iter()
        .find(|(net, len, _)| in_range(bits, u128::from(*net), *len, 128))
    {
        return plain(name);
    }
    if !in_range(bits, 0x2000_u128 << 112, 3, 128) {
        return plain("outside the global unicast space 2000::/3 (RFC 4291)");
    }
    None
}

/// True for addresses a user webhook must not reach by default.
pub fn is_internal(ip: IpAddr) -> bool {
    internal(ip).is_some()
}

/// The URL's host when it is an IP literal (a connection to it asks no resolver).
pub fn host_ip(u: &Url) -> Option<IpAddr> {
    // the URL parser wrote IPv4 literals in dotted form (`127.1` is `127.0.0.1`) and
    // IPv6 literals in brackets; a domain never parses as an address
    let h = u.host_str()?;
    let h = h
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(h);
    h.parse().ok()
}

/// Whether the URL's host is a loopback IP literal (`127.0.0.0/8`, `::1`).
pub fn is_loopback_host(u: &Url) -> bool {
    host_ip(u).is_some_and(|ip| ip.is_loopback())
}

/// Checks the form of a user webhook URL: absolute http(s), a host, no credentials.
pub fn parse_url(s: &str) -> Result<Url, String> {
    if s.len() > 2048 {
        return Err("at most 2048 characters".into());
    }
    let u = Url::parse(s).map_err(|e| format!("not a URL: {e}"))?;
    if u.scheme() != "http" && u.scheme() != "https" {
        return Err("must be an http or https URL".into());
    }
    if u.host_str().is_none_or_empty() {
        return Err("must name a host".into());
    }
    if !u.username().is_empty() || u.password().is_some() {
        return Err("must not contain credentials".into());
    }
    Ok(u)
}

trait EmptyHost {
    fn is_none_or_empty(&self) -> bool;
}

impl EmptyHost for Option<&str> {
    fn is_none_or_empty(&self) -> bool {
        self.map(|h| h.is_empty()).unwrap_or(true)
    }
}

/// How host names are looked up: the system's resolver in the server, a stand-in in
/// tests (a name that resolves elsewhere between two checks).
pub trait Lookup: Send + Sync + 'static {
    fn lookup(&self, host: String) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>>;
}

/// The system's resolver (`getaddrinfo` on a blocking thread).
#[derive(Clone, Copy, Debug)]
pub struct SystemLookup;

impl Lookup for SystemLookup {
    fn lookup(&self, host: String) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>> {
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .map(|a| a.ip())
                .collect())
        })
    }
}

/// Resolves the URL's host and refuses internal addresses (unless `allow_private`).
pub async fn check_url(u: &Url, allow_private: bool) -> Result<(), String> {
    check_url_with(u, allow_private, &SystemLookup).await
}

/// [`check_url`] with the given resolver. The message names the range of an IP literal
/// (the caller wrote it), never the addresses a name resolved to (that would tell the
/// caller about the server's network).
pub async fn check_url_with(
    u: &Url,
    allow_private: bool,
    lookup: &dyn Lookup,
) -> Result<(), String> {
    if allow_private {
        return Ok(());
    }
    if let Some(ip) = host_ip(u) {
        return match internal(ip) {
            Some(why) => Err(format!("must not point to an internal address: {why}")),
            None => Ok(()),
        };
    }
    let host = u.host_str().unwrap_or_default();
    let ips = lookup
        .lookup(host.to_string())
        .await
        .map_err(|_| format!("the host {host} cannot be resolved"))?;
    if ips.is_empty() {
        return Err(format!("the host {host} cannot be resolved"));
    }
    if ips.into_iter().any(is_internal) {
        return Err(format!(
            "must not point to an internal address: {host} resolves to a loopback, \
             link-local, private or otherwise internal address"
        ));
    }
    Ok(())
}

/// A delivery was not sent because its address is internal: the resolver found no
/// allowed address for the name, or the URL's IP literal is internal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAllowed(pub String);

impl fmt::Display for NotAllowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotAllowed {}

/// The resolver of user webhook connections: it looks names up and drops internal
/// addresses (unless `allow_private`), failing with [`NotAllowed`] when none is left.
/// Since the connection asks it, the address connected to is one it allowed.
#[derive(Clone)]
pub struct Guarded {
    pub lookup: Arc<dyn Lookup>,
    pub allow_private: bool,
}

impl Resolve for Guarded {
    fn resolve(&self, name: Name) -> Resolving {
        let (lookup, allow_private) = (self.lookup.clone(), self.allow_private);
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = lookup
                .lookup(host.clone())
                .await?
                .into_iter()
                .filter(|ip| allow_private || !is_internal(*ip))
                .map(|ip| SocketAddr::new(ip, 0))
                .collect();
            if addrs.is_empty() {
                let e = NotAllowed(format!("{host} resolves to no public address"));
                return Err(e.into());
            }
            let it: Addrs = Box::new(addrs.into_iter());
            Ok(it)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|_| panic!("{s} is an address"))
    }

    /// Refused addresses, with a word of the reason, one or more per range of the IANA
    /// special-purpose registries (RFC 6890 and later), and the IPv6 forms that carry an
    /// IPv4 address.
    const REFUSED: &[(&str, &str)] = &[
        // IPv4
        ("0.0.0.0", "this network"),
        ("0.1.2.3", "this network"),
        ("10.1.2.3", "private-use"),
        ("100.64.0.1", "shared address space"),
        ("100.127.255.254", "shared address space"),
        ("127.0.0.1", "loopback"),
        ("127.255.0.9", "loopback"),
        ("169.254.169.254", "link-local"),
        ("172.16.0.1", "private-use"),
        ("172.31.255.255", "private-use"),
        ("192.0.0.8", "IETF protocol assignments"),
        ("192.0.2.10", "documentation"),
        ("192.88.99.1", "6to4 relay anycast"),
        ("192.168.1.1", "private-use"),
        ("198.18.0.1", "benchmarking"),
        ("198.19.255.1", "benchmarking"),
        ("198.51.100.7", "documentation"),
        ("203.0.113.9", "documentation"),
        ("224.0.0.1", "multicast"),
        ("239.255.255.250", "multicast"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "limited broadcast"),
        // IPv6 plain
        ("::", "unspecified"),
        ("::1", "loopback"),
        ("fe80::1", "link-local"),
        ("febf::1", "link-local"),
        ("fc00::1", "unique local"),
        ("fd12:3456::1", "unique local"),
        ("fec0::1", "site-local"),
        ("feff::1", "site-local"),
        ("ff02::1", "multicast"),
        ("100::1", "discard-only"),
        ("100:0:0:1::1", "dummy prefix"),
        ("2001:db8::1", "documentation"),
        ("2001:db8:ffff::1", "documentation"),
        ("3fff::1", "documentation"),
        ("3fff:fff::1", "documentation"),
        ("2001:2::1", "benchmarking"),
        ("2001:10::1", "ORCHID"),
        ("2001:20::1", "ORCHIDv2"),
        ("2001:2f::1", "ORCHIDv2"),
        ("2001:1::1", "IETF protocol assignments"),
        ("2001:1ff::1", "IETF protocol assignments"),
        ("64:ff9b:1::1", "local-use IPv4/IPv6 translation"),
        ("64:ff9b:1:ffff::8.8.8.8", "local-use IPv4/IPv6 translation"),
        ("5f00::1", "segment routing"),
        ("1::1", "outside the global unicast space"),
        ("4000::1", "outside the global unicast space"),
        // Teredo: server 65.54.227.120, client 192.0.2.45 (RFC 4380's example)...
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
        // ... and one whose client, once un-obfuscated, is 127.0.0.1
        ("2001:0:4136:e378::80ff:fffe", "Teredo"),
        // IPv4-compatible (::/96, deprecated): the reported example and its kin
        ("::127.0.0.1", "IPv4-compatible"),
        ("::7f00:1", "loopback"),
        ("::10.0.0.1", "private-use"),
        ("::169.254.169.254", "link-local"),
        ("::0.0.0.2", "this network"),
        // IPv4-mapped, IPv4-translated, NAT64, 6to4
        ("::ffff:127.0.0.1", "IPv4-mapped"),
        ("::ffff:192.168.0.1", "private-use"),
        ("::ffff:0:127.0.0.1", "IPv4-translated"),
        ("::ffff:0:a9fe:a9fe", "link-local"),
        ("64:ff9b::127.0.0.1", "NAT64"),
        ("64:ff9b::a00:1", "private-use"),
        ("2002:7f00:1::", "6to4"),
        ("2002:a00:1:1::1", "private-use"),
        ("2002:a9fe:a9fe::1", "link-local"),
        ("2002:c000:201::1", "documentation"),
    ];

    /// Allowed: public addresses, and the forms above when what they embed is public.
    const ALLOWED: &[&str] = &[
        "93.184.216.34",
        "8.8.8.8",
        "1.1.1.1",
        "100.63.255.255",
        "100.128.0.1",
        "172.15.255.255",
        "172.32.0.1",
        "192.0.1.1",
        "192.31.196.1",
        "192.169.0.1",
        "198.17.255.255",
        "198.20.0.1",
        "223.255.255.255",
        "2606:2800:220:1::1",
        "2a00:1450:4001:81b::200e",
        "2001:200::1",
        "2001:4860:4860::8888",
        "2c0f:fb50::1",
        "3ffe::1",
        "::8.8.8.8",
        "::ffff:8.8.8.8",
        "::ffff:0:8.8.8.8",
        "64:ff9b::8.8.8.8",
        "2002:808:808::1",
    ];

    #[test]
    fn refused_addresses_and_why() {
        for (s, why) in REFUSED {
            let r = internal(ip(s)).unwrap_or_else(|| panic!("{s} must be refused"));
            assert!(r.to_string().contains(why), "{s}: {r} (expected {why})");
            assert!(is_internal(ip(s)), "{s}");
        }
    }

    #[test]
    fn allowed_addresses() {
        for s in ALLOWED {
            assert_eq!(internal(ip(s)), None, "{s} must be allowed");
        }
    }

    #[test]
    fn embedded_forms_name_their_ipv4_address() {
        let r = internal(ip("::127.0.0.1")).map(|r| r.to_string());
        assert_eq!(
            r.as_deref(),
            Some(
                "::7f00:1 is an IPv4-compatible (RFC 4291, deprecated) address of 127.0.0.1, \
                 which is loopback (RFC 1122)"
            )
        );
        let r = internal(ip("2002:a00:1::")).map(|r| r.embeds);
        assert_eq!(
            r,
            Some(Some(("6to4 (RFC 3056)", Ipv4Addr::new(10, 0, 0, 1))))
        );
    }

    #[test]
    fn url_literals() {
        let u = |s: &str| parse_url(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(host_ip(&u("http://[::127.0.0.1]/")), Some(ip("::7f00:1")));
        assert_eq!(host_ip(&u("http://127.1/")), Some(ip("127.0.0.1")));
        assert_eq!(host_ip(&u("http://2130706433/")), Some(ip("127.0.0.1")));
        assert_eq!(host_ip(&u("http://0x7f.0.0.1/")), Some(ip("127.0.0.1")));
        assert_eq!(host_ip(&u("https://example.com/")), None);
    }

    struct Fixed(Vec<IpAddr>);

    impl Lookup for Fixed {
        fn lookup(&self, _: String) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>> {
            let ips = self.0.clone();
            Box::pin(async move { Ok(ips) })
        }
    }

    fn check(url: &str, allow_private: bool, lookup: &dyn Lookup) -> Result<(), String> {
        let u = parse_url(url)?;
        actix_web::rt::System::new().block_on(check_url_with(&u, allow_private, lookup))
    }

    #[test]
    fn urls_at_creation() {
        let public = Fixed(vec![ip("93.184.216.34")]);
        let mixed = Fixed(vec![ip("93.184.216.34"), ip("::ffff:0:10.0.0.1")]);
        let none = Fixed(vec![]);
        assert_eq!(check("https://hook.test/x", false, &public), Ok(()));
        assert_eq!(check("http://[2606:2800:220:1::1]/", false, &none), Ok(()));
        let e = check("http://[::127.0.0.1]/", false, &public).unwrap_err();
        assert!(e.contains("127.0.0.1, which is loopback"), "{e}");
        let e = check("https://hook.test/x", false, &mixed).unwrap_err();
        assert!(e.contains("hook.test resolves to a loopback"), "{e}");
        assert!(
            !e.contains("10.0.0.1"),
            "no resolved address in the message: {e}"
        );
        let e = check("https://hook.test/x", false, &none).unwrap_err();
        assert!(e.contains("cannot be resolved"), "{e}");
        assert_eq!(check("http://[::127.0.0.1]/", true, &none), Ok(()));
    }

    #[test]
    fn url_forms() {
        assert!(parse_url("https://example.com/hook").is_ok());
        assert!(parse_url("ftp://example.com/").is_err());
        assert!(parse_url("https://user:pw@example.com/").is_err());
        assert!(parse_url("not a url").is_err());
        assert!(parse_url("file:///etc/passwd").is_err());
    }
}
