"""HTTP for scholarly APIs: bounded concurrency per provider, 429/Retry-After honoured, retries
(tenacity) with exponential backoff on timeouts and 5xx, and a disk cache keyed by a hash of the
request, so a rerun makes no calls. The transport is injectable: tests serve recorded-shape responses."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from ..response_cache import ResponseCache


class ProviderError(RuntimeError):
    """A provider could not answer: names the provider, the request and the reason."""


class CachedHttp:
    def __init__(self, name: str, cache_dir: str | Path | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 concurrency: int = 4, max_retries: int = 4, backoff_s: float = 0.5, timeout_s: float = 30.0,
                 max_wait_s: float = 60.0):
        self.name = name
        self.cache = ResponseCache(Path(cache_dir) / name if cache_dir else None)
        self.transport = transport
        self.semaphore = asyncio.Semaphore(concurrency)
        self.max_retries, self.backoff_s, self.timeout_s, self.max_wait_s = max_retries, backoff_s, timeout_s, max_wait_s
        self.calls = 0
        self.cache_hits = 0
        self.rate_limited = 0

    async def get(self, url: str, params: dict[str, Any] | None = None, kind: str = "json") -> Any:
        key = ResponseCache.key(url, sorted((params or {}).items()), kind)
        if (cached := self.cache.get(key)) is not None:
            self.cache_hits += 1
            return cached["body"]
        body = await self._fetch(url, params, kind)
        self.cache.put(key, {"url": url, "params": params, "body": body})
        return body

    async def _fetch(self, url: str, params: dict[str, Any] | None, kind: str) -> Any:
        from tenacity import AsyncRetrying, RetryError, retry_if_exception_type, stop_after_attempt

        def wait(state) -> float:  # Retry-After when the provider gave one, else exponential backoff
            exc = state.outcome.exception()
            backoff = self.backoff_s * 2 ** (state.attempt_number - 1)
            return min(exc.wait if isinstance(exc, _Transient) and exc.wait is not None else backoff, self.max_wait_s)

        async with self.semaphore:
            async with httpx.AsyncClient(transport=self.transport, timeout=self.timeout_s, follow_redirects=True) as client:
                try:
                    async for attempt in AsyncRetrying(stop=stop_after_attempt(self.max_retries + 1), wait=wait,
                                                       retry=retry_if_exception_type(_Transient)):
                        with attempt:
                            resp = await self._attempt(client, url, params)
                except RetryError as exc:
                    last = exc.last_attempt.exception()
                    raise ProviderError(f"{self.name}: {url} failed after {self.max_retries + 1} attempts ({last})") from None
        if kind == "text":
            return resp.text
        try:
            return resp.json()
        except ValueError as exc:
            raise ProviderError(f"{self.name}: {url} returned a malformed body ({exc})") from exc

    async def _attempt(self, client: httpx.AsyncClient, url: str, params: dict[str, Any] | None) -> httpx.Response:
        """One request; a timeout, a transport error, 429 or 5xx is transient (retried), another 4xx is not."""
        self.calls += 1
        try:
            resp = await client.get(url, params=params)
        except (httpx.TimeoutException, httpx.TransportError) as exc:
            raise _Transient(f"{type(exc).__name__}: {exc}") from exc
        if resp.status_code == 429:
            self.rate_limited += 1
            raise _Transient(f"429 rate limited (Retry-After {resp.headers.get('Retry-After')})",
                             _retry_after(resp.headers.get("Retry-After")))
        if resp.status_code >= 500:
            raise _Transient(f"HTTP {resp.status_code}")
        if resp.status_code >= 400:
            raise ProviderError(f"{self.name}: {url} answered HTTP {resp.status_code}")
        return resp


class _Transient(Exception):
    """A failure worth retrying; `wait`: the seconds the provider asked for, if it did."""

    def __init__(self, reason: str, wait: float | None = None):
        super().__init__(reason)
        self.wait = wait


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
