//! The server as the bot sees it: HTTP requests and sockets, each with the
//! account's access token.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A socket to the server.
pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An answer: its status and body.
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    /// The body as JSON when the status is a success; otherwise an error
    /// with the server's code and message.
    pub fn ok(self) -> Result<Value> {
        if (200..300).contains(&self.status) {
            Ok(serde_json::from_str(&self.body).unwrap_or(Value::Null))
        } else {
            bail!("{} {}", self.status, self.message())
        }
    }

    /// The error's code and message, or the body.
    pub fn message(&self) -> String {
        let v: Value = serde_json::from_str(&self.body).unwrap_or(Value::Null);
        match (v["code"].as_str(), v["message"].as_str()) {
            (Some(c), Some(m)) => format!("{c}: {m}"),
            (Some(c), None) => c.to_string(),
            _ => self.body.chars().take(200).collect(),
        }
    }
}

/// The server and the token.
pub struct Api {
    base: String,
    ws_base: String,
    token: String,
    http: reqwest::Client,
}

impl Api {
    /// `server` is `http://HOST[:PORT]` (a trailing `/` is fine).
    pub fn new(server: &str, token: String) -> Result<Api> {
        let base = server.trim().trim_end_matches('/').to_string();
        let rest = if let Some(r) = base.strip_prefix("http://") {
            r
        } else if base.starts_with("https://") {
            bail!(
                "--server: https is not built into plateau bot; reach the server over plain HTTP (a local TLS proxy such as stunnel or socat)"
            )
        } else {
            bail!("--server must be http://HOST[:PORT]")
        };
        if rest.is_empty() || rest.contains('/') {
            bail!("--server must be http://HOST[:PORT], without a path");
        }
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .connect_timeout(Duration::from_secs(10))
            .tcp_nodelay(true)
            .build()
            .context("making the HTTP client")?;
        Ok(Api { ws_base: format!("ws://{rest}"), base, token, http })
    }

    /// `http://HOST:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> Result<Answer> {
        self.send("GET", path, None).await
    }

    /// One request with the token, and a JSON body if given.
    pub async fn send(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Answer> {
        let m = reqwest::Method::from_bytes(method.as_bytes())?;
        let mut req = self.http.request(m, format!("{}{path}", self.base)).bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.header(reqwest::header::CONTENT_TYPE, "application/json").body(b.to_string());
        }
        let res = req.send().await.with_context(|| format!("{method} {path}"))?;
        let status = res.status().as_u16();
        let body = res.text().await.with_context(|| format!("{method} {path}"))?;
        Ok(Answer { status, body })
    }

    /// Open the socket at `path` with the token.
    pub async fn socket(&self, path: &str) -> Result<Socket> {
        let mut req = format!("{}{path}", self.ws_base).into_client_request()?;
        req.headers_mut().insert("Authorization", format!("Bearer {}", self.token).parse()?);
        let open = tokio_tungstenite::connect_async(req);
        let (ws, _) = tokio::time::timeout(Duration::from_secs(20), open).await.context("no answer in 20 s")??;
        Ok(ws)
    }
}
