//! Where user webhooks may point: http(s) URLs whose host does not resolve to a
//! loopback, link-local, private or otherwise internal address (unless the operator
//! allows them). The check runs when an endpoint is created and again at every
//! connection, through a resolver that drops internal addresses (so a name that later
//! resolves elsewhere cannot reach inside).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::Url;

/// True for addresses a user webhook must not reach by default.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => internal_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return internal_v4(v4);
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] == 0x64 && s[1] == 0xff9b) // NAT64
                || v6 == Ipv6Addr::from(1u128)
        }
    }
}

fn internal_v4(ip: Ipv4Addr) -> bool {
    let o = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // shared address space
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking
        || o[0] >= 240
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

/// Resolves the URL's host and refuses internal addresses (unless `allow_private`).
pub async fn check_url(u: &Url, allow_private: bool) -> Result<(), String> {
    if allow_private {
        return Ok(());
    }
    let host = u.host_str().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let port = u.port_or_known_default().unwrap_or(443);
    let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((host, port))
            .await
            .map_err(|_| format!("the host {host} cannot be resolved"))?
            .collect(),
    };
    if addrs.is_empty() {
        return Err(format!("the host {host} cannot be resolved"));
    }
    if addrs.iter().any(|a| is_internal(a.ip())) {
        return Err("must not point to a loopback, link-local or private address".to_string());
    }
    Ok(())
}

/// A resolver that keeps only public addresses.
#[derive(Debug, Clone, Copy)]
pub struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| !is_internal(a.ip()))
                .collect();
            if addrs.is_empty() {
                return Err(format!("{host} resolves to no public address").into());
            }
            let it: Addrs = Box::new(addrs.into_iter());
            Ok(it)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses() {
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(
                is_internal(s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))),
                "{s}"
            );
        }
        for s in ["93.184.216.34", "2606:2800:220:1::1", "8.8.8.8"] {
            assert!(
                !is_internal(s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))),
                "{s}"
            );
        }
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
