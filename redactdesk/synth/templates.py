"""Dialogue templates: call-centre scenarios in English and Spanish.

A scenario is a list of steps; a step is the name of a shared block or an inline
``(speaker, [phrasings])`` pair. One phrasing per step is drawn from the call's seed. Phrasings hold
``{placeholders}`` for personal data (see ``redactdesk.synth.script.PLACEHOLDERS``); the rest is
plain speech (punctuation is dropped when the line is split into spoken words).
"""

from __future__ import annotations

Step = str | tuple[str, list[str]]

A, C = "agent", "customer"

BLOCKS: dict[str, dict[str, tuple[str, list[str]]]] = {
    "en": {
        "greet": (A, [
            "Thank you for calling {org}, this is {agent}. How can I help?",
            "{org}, {agent} speaking, how can I help?",
            "Hi, you've reached {org}, my name is {agent}.",
        ]),
        "ask_name": (A, [
            "Sure. Can I have your full name?",
            "I can help with that. Your name please?",
            "Okay, who am I speaking with?",
        ]),
        "name": (C, ["It's {full_name}.", "{full_name}.", "Yes, {full_name}."]),
        "ask_spell": (A, ["Can you spell the last name?", "How do you spell that?", "Spell the surname for me?"]),
        "spell": (C, ["{spelled}.", "Sure, {spelled}.", "It's {spelled}."]),
        "ask_dob": (A, ["Thanks {first}. Date of birth?", "And your date of birth?", "Thank you. Your birth date?"]),
        "dob": (C, ["{dob}.", "It's {dob}.", "I was born {dob}."]),
        "ask_account": (A, ["And the account number?", "Do you have your account number?", "Customer number?"]),
        "account": (C, ["{account}.", "Yes, it's {account}.", "Let me see, {account}."]),
        "ask_phone": (A, ["Best phone number for you?", "And a contact number?", "Can I confirm your phone?"]),
        "phone": (C, ["{phone}.", "It's {phone}.", "My cell is {phone}."]),
        "ask_email": (A, ["And your email?", "Which email should I use?", "Email for the confirmation?"]),
        "email": (C, ["{email}.", "It's {email}.", "Sure, {email}."]),
        "ask_card": (A, ["Okay, the card number please.", "Go ahead with the card number.", "Card number?"]),
        "card": (C, ["{card}.", "It's {card}.", "Okay, {card}."]),
        "ask_expiry_cvv": (A, ["Expiry date and security code?", "And the expiry, then the code on the back?"]),
        "expiry_cvv": (C, ["{expiry}, and {cvv}.", "It expires {expiry}, code {cvv}.",
                           "{expiry}. The code is {cvv}."]),
        "ask_address": (A, ["What's the address?", "And the full address?", "Which address?"]),
        "address": (C, ["{address}, {city}, {postcode}.", "It's {address} in {city}, zip {postcode}.",
                        "{address}, {city}, zip code {postcode}."]),
        "close": (A, ["Anything else, {first}?", "Anything else today?", "Is there anything else?"]),
        "bye": (C, ["No, that's all. Thanks.", "No, thank you. Bye.", "That's it, thanks a lot."]),
    },
    "es": {
        "greet": (A, [
            "{org}, buenos días, le atiende {agent}.",
            "{org}, soy {agent}, ¿en qué le ayudo?",
            "Gracias por llamar a {org}, le habla {agent}.",
        ]),
        "ask_name": (A, ["¿Su nombre completo?", "Claro. ¿Me dice su nombre?", "¿Con quién hablo?"]),
        "name": (C, ["{full_name}.", "Soy {full_name}.", "Me llamo {full_name}."]),
        "ask_spell": (A, ["¿Me deletrea el primer apellido?", "¿Cómo se escribe?"]),
        "spell": (C, ["{spelled}.", "Sí, {spelled}."]),
        "ask_id": (A, ["¿Su DNI o NIE?", "¿Me da su documento?"]),
        "id": (C, ["{es_id}.", "Es el {es_id}."]),
        "ask_dob": (A, ["¿Fecha de nacimiento?", "Gracias {first}. ¿Su fecha de nacimiento?"]),
        "dob": (C, ["El {dob}.", "Nací el {dob}."]),
        "ask_account": (A, ["¿Su número de cliente?", "¿El número de contrato?"]),
        "account": (C, ["{account}.", "Sí, el {account}."]),
        "ask_phone": (A, ["¿Un teléfono de contacto?", "¿Su teléfono?"]),
        "phone": (C, ["El {phone}.", "Mi móvil es el {phone}."]),
        "ask_email": (A, ["¿Y un correo?", "¿Su correo electrónico?"]),
        "email": (C, ["{email}.", "Es {email}."]),
        "ask_card": (A, ["¿El número de la tarjeta?", "Dígame el número de tarjeta."]),
        "card": (C, ["{card}.", "Es la {card}."]),
        "ask_expiry_cvv": (A, ["¿Caducidad y código de seguridad?", "¿Cuándo caduca? ¿Y el código?"]),
        "expiry_cvv": (C, ["{expiry}, código {cvv}.", "Caduca en {expiry}. El código es {cvv}."]),
        "ask_address": (A, ["¿La dirección?", "¿Me da la dirección completa?"]),
        "address": (C, ["{address}, {city}, código postal {postcode}.", "{address}, {postcode}, {city}."]),
        "close": (A, ["¿Algo más, {honorific} {surname}?", "¿Necesita algo más?"]),
        "bye": (C, ["No, gracias. Adiós.", "Nada más, gracias."]),
    },
}

IDENTIFY = ["ask_name", "name", "ask_spell", "spell", "ask_dob", "dob"]
CONTACT = ["ask_phone", "phone", "ask_email", "email"]
PAY = ["ask_card", "card", "ask_expiry_cvv", "expiry_cvv"]
CLOSE = ["close", "bye"]

SCENARIOS: dict[str, dict[str, dict]] = {
    "en": {
        "card_payment": {
            "org": ["Bank", "Savings Bank", "Credit Union", "Financial"],
            "steps": [
                "greet",
                (C, ["Hi, I'd like to pay my credit card bill.", "Hello, I want to pay my balance."]),
                *IDENTIFY, "ask_account", "account",
                (A, ["Your balance is {amount}. Pay it all?", "The amount due is {amount}. Pay in full?"]),
                (C, ["Yes please.", "Yes, all of it."]),
                *PAY,
                (A, ["Billing address?", "And the billing address?"]),
                "address",
                (A, ["Done, {amount} paid. Email for the receipt?", "Payment went through. Your email?"]),
                "email", "ask_phone", "phone", *CLOSE,
            ],
        },
        "address_change": {
            "org": ["Insurance", "Energy", "Utilities", "Mutual"],
            "steps": [
                "greet",
                (C, ["Hi, I've moved and need to update my address.", "Hello, I want to change my address."]),
                *IDENTIFY,
                (A, ["Thanks. The new address?", "Verified. Go ahead with the new address."]),
                "address", "ask_phone", "phone",
                (A, ["There's a fee of {amount}. Pay by card?", "The change costs {amount}. Card okay?"]),
                (C, ["Sure.", "Yes, by card."]),
                *PAY,
                (A, ["Done. Your reference is {ticket}.", "All set, reference {ticket}."]),
                "ask_email", "email", *CLOSE,
            ],
        },
        "account_recovery": {
            "org": ["Bank", "Online Banking", "Financial"],
            "steps": [
                "greet",
                (C, ["Hi, I'm locked out of my online account.", "Hello, the app won't let me log in."]),
                *IDENTIFY, "ask_account", "account",
                (A, ["Address on file?", "Can you confirm your home address?"]),
                "address", *CONTACT,
                (A, ["Your last purchase amount?", "What was your last transaction?"]),
                (C, ["I think {amount}.", "It was {amount}."]),
                (A, ["And the card number on the account?", "Last step, your card number."]),
                "card", "ask_expiry_cvv", "expiry_cvv",
                (A, ["Thanks, a reset link is on its way.", "You're verified. Check your email."]),
                "bye",
            ],
        },
        "tech_support": {
            "org": ["Telecom", "Broadband", "Wireless", "Fiber"],
            "steps": [
                "greet",
                (C, ["Hi, my internet is down since yesterday.", "Hello, my router keeps dropping."]),
                *IDENTIFY,
                (A, ["The service address?", "Which address is the line at?"]),
                "address",
                (A, ["Your ticket number is {ticket}. A visit costs {amount}, okay?",
                     "I opened ticket {ticket}. An engineer visit is {amount}. Book it?"]),
                (C, ["Yes, go ahead.", "Sure, book it."]),
                *PAY, *CONTACT, *CLOSE,
            ],
        },
        "order_tracking": {
            "org": ["Outfitters", "Home Goods", "Electronics", "Supply"],
            "steps": [
                "greet",
                (C, ["Hi, my order never arrived.", "Hello, I'm calling about a missing package."]),
                (A, ["Sorry about that. The order number?", "Do you have the order number?"]),
                (C, ["It's {ticket}.", "Yes, {ticket}."]),
                *IDENTIFY,
                (A, ["Delivery address?", "Where was it shipped to?"]),
                "address",
                (A, ["It's lost, so I'll refund {amount}. Which card did you use?",
                     "I'll refund the {amount}. Card number please."]),
                "card", "ask_expiry_cvv", "expiry_cvv", *CONTACT, *CLOSE,
            ],
        },
    },
    "es": {
        "pago_tarjeta": {
            "org": ["Banco", "Caja"],
            "steps": [
                "greet",
                (C, ["Hola, quería pagar el recibo de la tarjeta.", "Buenos días, llamo para pagar una deuda."]),
                *IDENTIFY, "ask_id", "id", "ask_account", "account",
                (A, ["Tiene pendiente {amount}. ¿Lo paga todo?", "El importe es de {amount}. ¿Lo paga ahora?"]),
                (C, ["Sí, todo.", "Sí, por favor."]),
                *PAY, "ask_address", "address", *CONTACT, *CLOSE,
            ],
        },
        "cambio_domicilio": {
            "org": ["Seguros", "Energía"],
            "steps": [
                "greet",
                (C, ["Hola, me he mudado y quiero cambiar la dirección.", "Buenas, quiero cambiar mi domicilio."]),
                *IDENTIFY, "ask_id", "id", "ask_account", "account",
                (A, ["¿La nueva dirección?", "Dígame la nueva dirección."]),
                "address", "ask_phone", "phone",
                (A, ["El cambio cuesta {amount}. ¿Con tarjeta?", "Hay una tasa de {amount}. ¿Paga con tarjeta?"]),
                (C, ["Sí.", "Vale."]),
                *PAY, "ask_email", "email", *CLOSE,
            ],
        },
        "soporte_tecnico": {
            "org": ["Telecomunicaciones", "Fibra"],
            "steps": [
                "greet",
                (C, ["Hola, no me funciona internet.", "Buenas, el router se desconecta."]),
                *IDENTIFY, "ask_id", "id",
                (A, ["¿La dirección de la línea?", "¿Dónde está la instalación?"]),
                "address",
                (A, ["Incidencia {ticket}. La visita cuesta {amount}. ¿La programo?",
                     "Su incidencia es la {ticket}. El técnico cuesta {amount}. ¿Le parece?"]),
                (C, ["Sí, adelante.", "Sí, por favor."]),
                *PAY, *CONTACT, *CLOSE,
            ],
        },
        "seguimiento_pedido": {
            "org": ["Almacenes", "Electrónica"],
            "steps": [
                "greet",
                (C, ["Hola, mi pedido no ha llegado.", "Buenas, no me ha llegado un paquete."]),
                (A, ["¿El número de pedido?", "¿Me dice el número de pedido?"]),
                (C, ["Es el {ticket}.", "El {ticket}."]),
                *IDENTIFY, "ask_id", "id",
                (A, ["¿La dirección de entrega?", "¿A qué dirección se envió?"]),
                "address",
                (A, ["Se ha perdido. Le devuelvo {amount}. ¿El número de tarjeta?",
                     "Le reembolsamos {amount}. ¿Con qué tarjeta pagó?"]),
                "card", "ask_expiry_cvv", "expiry_cvv", *CONTACT, *CLOSE,
            ],
        },
    },
}

# Short words a caller puts in front of an answer when the "fillers" variation is on.
FILLERS = {"en": ["um", "uh", "okay", "so", "yeah"], "es": ["eh", "pues", "vale", "bueno"]}
