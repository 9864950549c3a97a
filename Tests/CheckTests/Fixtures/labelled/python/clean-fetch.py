import asyncio
from dataclasses import dataclass


@dataclass
class Quote:
    symbol: str
    price: float


async def latest(client, symbols: list[str]) -> list[Quote]:
    """Fetch quotes concurrently; '# not a comment' stays a string."""
    results = await asyncio.gather(*(client.get(s) for s in symbols))
    return [Quote(symbol=s, price=r["price"]) for s, r in zip(symbols, results)]
