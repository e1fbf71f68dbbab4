//! `plateau serve` (the game server) and `plateau loadtest` (its load tool).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};

/// How hard the server makes commits durable.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SyncArg {
    /// Sync every commit to the disk: survives a power cut.
    Full,
    /// Leave syncing to the operating system: survives kill -9, not a power cut.
    Normal,
}

/// `plateau serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Where to listen (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: sqlite://PATH (the file and its directory are created)
    /// or postgres://USER@HOST:PORT/DATABASE (an existing database).
    #[arg(long, default_value = "sqlite://data/plateau.sqlite")]
    pub db: String,
    /// Threads for the computer players (default: one per core).
    #[arg(long)]
    pub ai_threads: Option<usize>,
    /// How commits are made durable: normal survives the server being killed, full also a power cut.
    #[arg(long, value_enum, default_value = "full")]
    pub sync: SyncArg,
    /// Group commit (SQLite): microseconds the writer waits for more writes before a commit when writes come concurrently, so that one commit (and its sync) serves more moves; 0: never (at most 5000).
    #[arg(long, value_name = "MICROS", default_value_t = plateau_server::store::DEFAULT_COMMIT_DELAY_MICROS,
          value_parser = clap::value_parser!(u64).range(0..=plateau_server::store::MAX_COMMIT_DELAY_MICROS))]
    pub commit_delay: u64,
    /// Seconds a connection has to send a complete request head (from its opening, or from the first byte of a later request).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub header_timeout: u64,
    /// Seconds a kept-alive HTTP connection may wait idle between requests.
    #[arg(long, value_name = "SECS", default_value_t = 75)]
    pub keep_alive: u64,
    /// Open connections (WebSockets included) per client address (IPv6: per /64); 0: no cap.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_conns_per_ip: usize,
    /// Open connections in all (lowered to 3/4 of the limit of open files if that is smaller).
    #[arg(long, value_name = "N", default_value_t = 16_000)]
    pub max_conns: usize,
    /// The last N places of --max-conns go only to addresses holding fewer than 8 connections.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub conn_reserve: usize,
    /// Apply --max-conns-per-ip to loopback addresses too (by default the load tool and a local reverse proxy are not capped per address).
    #[arg(long)]
    pub limit_loopback: bool,
    /// Behind a reverse proxy on this machine: a request from a loopback address is from the client the last X-Forwarded-For address names (limits per client are keyed by it).
    #[arg(long)]
    pub behind_proxy: bool,
    /// Clients reach the server over TLS (directly or through the proxy): the session cookie is marked Secure.
    #[arg(long)]
    pub secure_cookies: bool,
    /// Several instances on one PostgreSQL database: seconds an instance's heartbeat (which holds its games' leases) lasts unless renewed; a dead instance's games are taken over this long after its last heartbeat (docs/deploy.md).
    #[arg(long, value_name = "SECS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub lease: u64,
}

/// `plateau loadtest`.
#[derive(Args)]
pub struct LoadtestArgs {
    /// The server to load, as HOST:PORT (default 127.0.0.1:8080; for several, use --server).
    #[arg(long, conflicts_with = "servers")]
    pub addr: Option<SocketAddr>,
    /// A server of the service to load, as http://HOST:PORT (repeatable: the games and sockets are spread over them, and a client whose server fails goes on with the next).
    #[arg(long = "server", value_name = "URL")]
    pub servers: Vec<String>,
    /// Seconds a client whose socket failed tries the servers in turn before giving up.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub reconnect_for: u64,
    /// Concurrent games between random movers (two WebSockets each).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Seconds to measure, after every game has started.
    #[arg(long, default_value_t = 30)]
    pub duration: u64,
    /// Moves per second offered in all (default: 5 a second per game); 0: as fast as the server answers.
    #[arg(long)]
    pub rate: Option<f64>,
    /// The game to play.
    #[arg(long, default_value = "abalone")]
    pub game: String,
    /// An option of the games, as name=value (repeatable; default: max-plies=200 for games that have it).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Games between two computer players to run alongside.
    #[arg(long, default_value_t = 0)]
    pub computer_games: usize,
    /// The computer players of those games.
    #[arg(long, default_value = "greedy")]
    pub computer_player: String,
    /// A live clock on every game, in seconds (e.g. 600+5: long enough that no clock falls during the run).
    #[arg(long, value_name = "INITIAL+INCREMENT")]
    pub clock: Option<plateau_client::loadtest::Clock>,
    /// Rated games, between accounts (created and joined with their access tokens; 16 accounts unless --accounts says).
    #[arg(long)]
    pub rated: bool,
    /// Play as a pool of N accounts signed up at the start (two in each game, each in many games at once); default: guests, or 16 with --rated.
    #[arg(long, value_name = "N")]
    pub accounts: Option<usize>,
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the async runtime")
}

/// Run the server until Ctrl-C or SIGTERM.
pub fn serve(args: ServeArgs) -> Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    plateau_server::raise_fd_limit();
    // The web interface (lobby, game pages, rules) is served at `/`.
    let mut config =
        plateau_server::Config { addr: args.addr, db: args.db, ui: Some(plateau_web::router()), ..Default::default() };
    if let Some(n) = args.ai_threads {
        config.ai_threads = n;
    }
    if args.header_timeout == 0 || args.keep_alive == 0 {
        bail!("--header-timeout and --keep-alive must be at least 1 second");
    }
    if args.max_conns == 0 {
        bail!("--max-conns must be at least 1");
    }
    config.connections = plateau_server::ConnLimits {
        header_read_timeout: Duration::from_secs(args.header_timeout),
        keep_alive_idle: Duration::from_secs(args.keep_alive),
        max_per_ip: args.max_conns_per_ip,
        max_total: args.max_conns,
        reserve: args.conn_reserve,
        limit_loopback: args.limit_loopback,
        ..Default::default()
    };
    config.commit_delay = Duration::from_micros(args.commit_delay);
    config.limits.behind_proxy = args.behind_proxy;
    config.limits.secure_cookies = args.secure_cookies;
    config.limits.lease = std::time::Duration::from_secs(args.lease);
    config.durability = match args.sync {
        SyncArg::Full => plateau_server::Durability::Full,
        SyncArg::Normal => plateau_server::Durability::Normal,
    };
    runtime()?.block_on(async move {
        let server = plateau_server::start(config).await?;
        println!("plateau: listening on http://{}", server.addr());
        if server.resumed() > 0 {
            println!("plateau: resumed {} games with computer seats", server.resumed());
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        server.run_until_signal().await.context("serving")?;
        Ok(())
    })
}

/// Run the load tool against a running server and print the figures.
pub fn loadtest(args: LoadtestArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if let Some(r) = args.rate
        && !(r.is_finite() && r >= 0.0)
    {
        bail!("--rate must be a number of moves per second, 0 or more");
    }
    let mut options = Vec::new();
    for o in &args.options {
        let (k, v) = plateau_core::Options::parse_pair(o)?;
        options.push((k, v));
    }
    // Games that can go on for long (a `max-plies` option) are kept short,
    // so that the tool measures games that end and start again.
    let registry = plateau_games::registry();
    let info = registry.get(&args.game).map_err(anyhow::Error::msg)?.info();
    if options.is_empty() && info.option("max-plies").is_some() {
        options.push(("max-plies".to_string(), "200".to_string()));
    }
    if let Some(n) = args.accounts
        && !(2..=plateau_client::loadtest::MAX_ACCOUNTS).contains(&n)
    {
        bail!("--accounts must be 2 to {} (two different ones in each game)", plateau_client::loadtest::MAX_ACCOUNTS);
    }
    let mut servers = Vec::new();
    for s in &args.servers {
        servers.push(plateau_client::loadtest::parse_server(s).map_err(|e| anyhow::anyhow!("--server {e}"))?);
    }
    plateau_server::raise_fd_limit();
    let cfg = plateau_client::loadtest::LoadConfig {
        addr: args.addr.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
        servers,
        reconnect_for: Duration::from_secs(args.reconnect_for),
        games: args.games,
        duration: Duration::from_secs(args.duration),
        rate: args.rate.unwrap_or(5.0 * args.games as f64),
        game: args.game,
        options,
        computer_games: args.computer_games,
        computer_player: args.computer_player,
        clock: args.clock,
        rated: args.rated,
        accounts: args.accounts.unwrap_or(0),
    };
    let opts: Vec<String> = cfg.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut players = String::new();
    if cfg.account_pool() > 0 {
        let rated = if cfg.rated { "rated" } else { "unrated" };
        players.push_str(&format!(", {rated} between {} accounts", cfg.account_pool()));
    }
    if let Some(c) = cfg.clock {
        players.push_str(&format!(", clock {c}"));
    }
    println!(
        "loadtest: {} games of {} ({}{players}) against {} for {} s",
        cfg.games,
        cfg.game,
        if opts.is_empty() { "default options".to_string() } else { opts.join(" ") },
        cfg.server_list().iter().map(|a| format!("http://{a}")).collect::<Vec<_>>().join(", "),
        args.duration
    );
    let report = runtime()?.block_on(plateau_client::loadtest::run(cfg)).map_err(anyhow::Error::msg)?;
    println!("{report}");
    Ok(())
}
