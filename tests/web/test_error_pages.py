from django.test import Client, override_settings


@override_settings(DEBUG=False)
def test_an_unknown_address_gets_our_own_not_found_page():
    response = Client().get("/no/such/page")
    assert response.status_code == 404
    html = response.content.decode()
    assert "There is no such page here." in html
    assert 'href="/"' in html
    assert "<script" not in html and "style=" not in html
