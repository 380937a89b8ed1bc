from __future__ import annotations

from tests.mcp.conftest import call, connect, pytestmark  # noqa: F401


def test_it_lists_its_tools(door, tokens):
    async def work(session):
        return await session.list_tools()

    tools = connect(door, tokens.editor, work)
    assert [tool.name for tool in tools.tools] == [
        "search_stories",
        "get_story",
        "get_manifest",
        "submit_story",
        "get_run",
        "publish_story",
    ]


def test_it_searches_published_stories(door, tokens):
    result = call(door, tokens.editor, "search_stories", query="agent")
    assert not result.is_error, result
    print(result.structured_content)
