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
            "Thank you for calling {org}, my name is {agent}. How can I help you today?",
            "Good morning, you've reached {org}, this is {agent} speaking. What can I do for you?",
            "Hi, thanks for calling {org}. You're speaking with {agent}. How may I help?",
            "{org}, {agent} speaking, how can I help?",
        ]),
        "ask_name": (A, [
            "I can help with that. Can I start with your full name please?",
            "Sure, let me pull up your account. Could I get your first and last name?",
            "Happy to help. Who am I speaking with today?",
        ]),
        "name": (C, [
            "Yes, it's {full_name}.",
            "My name is {full_name}.",
            "Sure, {full_name}.",
        ]),
        "ask_spell": (A, [
            "Could you spell your last name for me?",
            "And how do you spell the last name?",
            "Thank you. Can you spell the surname please?",
        ]),
        "spell": (C, [
            "It's {spelled}.",
            "Sure, {spelled}.",
            "{spelled}.",
        ]),
        "ask_dob": (A, [
            "Thank you {first}. And can you confirm your date of birth?",
            "Thanks. For security, what is your date of birth?",
            "Got it. And your date of birth please?",
        ]),
        "dob": (C, [
            "It's {dob}.",
            "{dob}.",
            "I was born {dob}.",
        ]),
        "ask_account": (A, [
            "And do you have your account number handy?",
            "Can I have the account number on your statement?",
            "Perfect. What is your customer number?",
        ]),
        "account": (C, [
            "Yes, it's {account}.",
            "Let me see, {account}.",
            "{account}.",
        ]),
        "ask_phone": (A, [
            "What's the best phone number to reach you on?",
            "Can you confirm the phone number on the account?",
            "And a contact number please?",
        ]),
        "phone": (C, [
            "It's {phone}.",
            "My cell is {phone}.",
            "Sure, {phone}.",
        ]),
        "ask_email": (A, [
            "And your email address?",
            "Can I get an email address for the confirmation?",
            "Which email should we send that to?",
        ]),
        "email": (C, [
            "Sure, it's {email}.",
            "{email}.",
            "It's {email}, all lower case.",
        ]),
        "ask_card": (A, [
            "Okay. I'll need the card number please, go ahead when you're ready.",
            "Which card would you like to use? Read me the long number on the front.",
            "Alright, can I have the card number?",
        ]),
        "card": (C, [
            "Okay, it's {card}.",
            "Sure, the number is {card}.",
            "Here it is, {card}.",
        ]),
        "ask_expiry": (A, [
            "And the expiry date?",
            "What's the expiration date on the card?",
            "Thanks, and when does it expire?",
        ]),
        "expiry": (C, [
            "{expiry}.",
            "It expires {expiry}.",
            "Expiry is {expiry}.",
        ]),
        "ask_cvv": (A, [
            "And the three digit security code on the back?",
            "Last thing, the security code please.",
        ]),
        "cvv": (C, [
            "{cvv}.",
            "It's {cvv}.",
        ]),
        "ask_address": (A, [
            "What's the address?",
            "Can you give me the full address please?",
            "And what address is that?",
        ]),
        "address": (C, [
            "It's {address} in {city}, zip code {postcode}.",
            "{address}, {city}, {postcode}.",
            "Sure, {address} in {city}. The zip is {postcode}.",
        ]),
        "close": (A, [
            "Is there anything else I can help you with today, {first}?",
            "Anything else I can do for you?",
        ]),
        "thanks": (C, [
            "No, that's everything. Thank you so much.",
            "No, that's all, thanks for your help.",
        ]),
        "bye": (A, [
            "You're welcome. Thank you for calling {org}, have a great day.",
            "My pleasure, {first}. Have a good one.",
        ]),
    },
    "es": {
        "greet": (A, [
            "Buenos días, ha llamado a {org}, le atiende {agent}. ¿En qué puedo ayudarle?",
            "{org}, buenas tardes, soy {agent}. ¿Qué necesita?",
            "Gracias por llamar a {org}, le habla {agent}. ¿En qué le puedo ayudar?",
        ]),
        "ask_name": (A, [
            "Claro, le ayudo. ¿Me dice su nombre completo, por favor?",
            "Muy bien. ¿Con quién tengo el gusto de hablar?",
            "De acuerdo. ¿Me puede decir su nombre y apellidos?",
        ]),
        "name": (C, [
            "Sí, soy {full_name}.",
            "Me llamo {full_name}.",
            "{full_name}.",
        ]),
        "ask_spell": (A, [
            "¿Me deletrea el primer apellido, por favor?",
            "¿Cómo se escribe su apellido?",
        ]),
        "spell": (C, [
            "Sí, {spelled}.",
            "{spelled}.",
            "Se escribe {spelled}.",
        ]),
        "ask_id": (A, [
            "Gracias. ¿Me indica su DNI o NIE?",
            "Para verificar su identidad, ¿me da su número de documento?",
        ]),
        "id": (C, [
            "Sí, es el {es_id}.",
            "{es_id}.",
            "Mi documento es {es_id}.",
        ]),
        "ask_dob": (A, [
            "¿Y su fecha de nacimiento?",
            "Gracias, {first}. ¿Me confirma su fecha de nacimiento?",
        ]),
        "dob": (C, [
            "El {dob}.",
            "Nací el {dob}.",
        ]),
        "ask_account": (A, [
            "¿Tiene a mano su número de cliente?",
            "¿Me da el número de contrato, por favor?",
        ]),
        "account": (C, [
            "Sí, es el {account}.",
            "A ver, {account}.",
        ]),
        "ask_phone": (A, [
            "¿Un teléfono de contacto?",
            "¿Me confirma el número de teléfono?",
        ]),
        "phone": (C, [
            "El {phone}.",
            "Mi móvil es el {phone}.",
        ]),
        "ask_email": (A, [
            "¿Y un correo electrónico?",
            "¿A qué correo le enviamos la confirmación?",
        ]),
        "email": (C, [
            "Es {email}.",
            "{email}, todo en minúsculas.",
        ]),
        "ask_card": (A, [
            "Perfecto. ¿Me dicta el número de la tarjeta?",
            "¿Con qué tarjeta quiere pagar? Dígame el número, por favor.",
        ]),
        "card": (C, [
            "Sí, es la {card}.",
            "Apunte, {card}.",
        ]),
        "ask_expiry": (A, [
            "¿Fecha de caducidad?",
            "¿Y cuándo caduca?",
        ]),
        "expiry": (C, [
            "{expiry}.",
            "Caduca en {expiry}.",
        ]),
        "ask_cvv": (A, [
            "¿Y el código de seguridad de tres cifras?",
            "Por último, el código CVV.",
        ]),
        "cvv": (C, [
            "{cvv}.",
            "Es el {cvv}.",
        ]),
        "ask_address": (A, [
            "¿Cuál es la dirección?",
            "¿Me da la dirección completa?",
        ]),
        "address": (C, [
            "{address}, en {city}, código postal {postcode}.",
            "Es {address}, {postcode}, {city}.",
        ]),
        "close": (A, [
            "¿Puedo ayudarle en algo más, {honorific} {surname}?",
            "¿Necesita algo más?",
        ]),
        "thanks": (C, [
            "No, eso es todo. Muchas gracias.",
            "Nada más, gracias por su ayuda.",
        ]),
        "bye": (A, [
            "Gracias a usted por llamar a {org}. Que tenga un buen día.",
            "De nada. Hasta luego.",
        ]),
    },
}

IDENTIFY = ["ask_name", "name", "ask_spell", "spell", "ask_dob", "dob"]
CONTACT = ["ask_phone", "phone", "ask_email", "email"]
PAY = ["ask_card", "card", "ask_expiry", "expiry", "ask_cvv", "cvv"]
CLOSE = ["close", "thanks", "bye"]

SCENARIOS: dict[str, dict[str, dict]] = {
    "en": {
        "card_payment": {
            "org": ["Bank", "Savings Bank", "Credit Union", "Financial"],
            "steps": [
                "greet",
                (C, ["Hi, I'd like to make a payment on my credit card bill.",
                     "Hello, I'm calling to pay my balance.",
                     "Hi there, I want to pay off what I owe this month."]),
                *IDENTIFY, "ask_account", "account",
                (A, ["Thank you. I see a balance of {amount}. Would you like to pay the full amount?",
                     "Okay, the amount due is {amount}. Shall we pay all of it today?"]),
                (C, ["Yes, the full amount please.", "Yes please, all of it."]),
                *PAY,
                (A, ["And the billing address for that card?", "What's the billing address?"]),
                "address",
                (A, ["Great, the payment of {amount} went through. Where should I send the receipt?",
                     "Done, {amount} has been paid. Can I email you a receipt?"]),
                "email", "ask_phone", "phone", *CLOSE,
            ],
        },
        "address_change": {
            "org": ["Insurance", "Energy", "Utilities", "Mutual"],
            "steps": [
                "greet",
                (C, ["Hi, I've just moved and I need to update my address.",
                     "Hello, I'm calling to change the address on my policy."]),
                *IDENTIFY,
                (A, ["Thank you, that's verified. What's the new address?",
                     "Thanks {first}. Go ahead with the new address."]),
                "address", "ask_phone", "phone",
                (A, ["Got it. Moving the policy has a fee of {amount}. How would you like to pay?",
                     "Okay, there's a change fee of {amount}. Do you want to pay that by card?"]),
                (C, ["By card please.", "Card is fine."]),
                *PAY,
                (A, ["All done. Your reference number is {ticket}.",
                     "Perfect. Please note the reference {ticket}."]),
                "ask_email", "email", *CLOSE,
            ],
        },
        "account_recovery": {
            "org": ["Bank", "Online Banking", "Financial"],
            "steps": [
                "greet",
                (C, ["Hi, I'm locked out of my online account.",
                     "Hello, I forgot my password and now the app won't let me in."]),
                *IDENTIFY, "ask_account", "account",
                (A, ["Thanks. Can you confirm the address we have on file?",
                     "And the home address on the account?"]),
                "address", *CONTACT,
                (A, ["To finish the check, what was the amount of your last purchase?",
                     "One more question, what was your last transaction amount?"]),
                (C, ["I think it was {amount}.", "It was {amount}."]),
                (A, ["And can you read me the card number linked to the account?",
                     "Last step, the number on your debit card please."]),
                "card", "ask_expiry", "expiry", "ask_cvv", "cvv",
                (A, ["Thank you, I've sent a reset link to your email.",
                     "You're verified. A reset link is on its way."]),
                "thanks", "bye",
            ],
        },
        "tech_support": {
            "org": ["Telecom", "Broadband", "Wireless", "Fiber"],
            "steps": [
                "greet",
                (C, ["Hi, my internet has been down since yesterday.",
                     "Hello, my router keeps dropping the connection."]),
                *IDENTIFY,
                (A, ["Thanks. What's the service address?", "Which address is the service at?"]),
                "address",
                (A, ["I've opened a ticket for you, the number is {ticket}.",
                     "I'm raising a fault ticket, that's {ticket}."]),
                (C, ["Okay, thank you.", "Great, thanks."]),
                (A, ["A technician visit costs {amount}. Shall I book one?",
                     "We can send an engineer for {amount}. Would you like that?"]),
                (C, ["Yes please, go ahead.", "Sure, book it."]),
                *PAY, *CONTACT,
                (A, ["The technician will call before the visit.", "You'll get a text the day before."]),
                *CLOSE,
            ],
        },
        "order_tracking": {
            "org": ["Outfitters", "Home Goods", "Electronics", "Supply"],
            "steps": [
                "greet",
                (C, ["Hi, my order hasn't arrived yet.",
                     "Hello, I'm calling about a package that never showed up."]),
                (A, ["I'm sorry to hear that. Do you have the order number?",
                     "Let me check. What's the order number?"]),
                (C, ["Yes, it's {ticket}.", "It's {ticket}."]),
                *IDENTIFY,
                (A, ["And the delivery address?", "Which address was it shipped to?"]),
                "address",
                (A, ["It looks lost. I'll refund the {amount} to your card. Can you read the card number?",
                     "The parcel is lost, so I'll refund {amount}. What card did you pay with?"]),
                "card", "ask_expiry", "expiry", "ask_cvv", "cvv", *CONTACT, *CLOSE,
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
                (A, ["Gracias. Tiene un saldo pendiente de {amount}. ¿Lo paga entero?",
                     "El importe pendiente es de {amount}. ¿Quiere pagarlo ahora?"]),
                (C, ["Sí, todo.", "Sí, por favor."]),
                *PAY,
                (A, ["¿Y la dirección de facturación?", "¿Me confirma la dirección?"]),
                "address", *CONTACT, *CLOSE,
            ],
        },
        "cambio_domicilio": {
            "org": ["Seguros", "Energía"],
            "steps": [
                "greet",
                (C, ["Hola, me he mudado y quiero cambiar la dirección.",
                     "Buenas, llamo para actualizar mi domicilio."]),
                *IDENTIFY, "ask_id", "id", "ask_account", "account",
                (A, ["Perfecto. ¿Cuál es la nueva dirección?", "Muy bien, dígame la nueva dirección."]),
                "address", "ask_phone", "phone",
                (A, ["El cambio tiene un coste de {amount}. ¿Lo abona con tarjeta?",
                     "Hay una tasa de {amount}. ¿Paga con tarjeta?"]),
                (C, ["Sí, con tarjeta.", "Vale."]),
                *PAY, "ask_email", "email", *CLOSE,
            ],
        },
        "soporte_tecnico": {
            "org": ["Telecomunicaciones", "Fibra"],
            "steps": [
                "greet",
                (C, ["Hola, no me funciona internet desde ayer.", "Buenas, el router se desconecta todo el rato."]),
                *IDENTIFY, "ask_id", "id",
                (A, ["¿En qué dirección está la línea?", "¿Me da la dirección de la instalación?"]),
                "address",
                (A, ["Le abro una incidencia con el número {ticket}.", "Su número de incidencia es el {ticket}."]),
                (C, ["Vale, gracias.", "De acuerdo."]),
                (A, ["La visita del técnico cuesta {amount}. ¿La programamos?",
                     "Podemos enviar un técnico por {amount}. ¿Le parece bien?"]),
                (C, ["Sí, adelante.", "Sí, por favor."]),
                *PAY, *CONTACT, *CLOSE,
            ],
        },
        "seguimiento_pedido": {
            "org": ["Almacenes", "Electrónica"],
            "steps": [
                "greet",
                (C, ["Hola, mi pedido no ha llegado.", "Buenas, llamo por un paquete que no me ha llegado."]),
                (A, ["Lo siento. ¿Tiene el número de pedido?", "¿Me dice el número de pedido?"]),
                (C, ["Sí, es el {ticket}.", "El {ticket}."]),
                *IDENTIFY, "ask_id", "id",
                (A, ["¿A qué dirección se envió?", "¿Cuál es la dirección de entrega?"]),
                "address",
                (A, ["El paquete se ha perdido. Le devolvemos {amount} a la tarjeta. ¿Me dicta el número?",
                     "Le reembolsamos {amount}. ¿Con qué tarjeta pagó?"]),
                "card", "ask_expiry", "expiry", "ask_cvv", "cvv", *CONTACT, *CLOSE,
            ],
        },
    },
}

# Short words a caller puts in front of an answer when the "fillers" variation is on.
FILLERS = {"en": ["um", "uh", "okay", "so", "yeah"], "es": ["eh", "pues", "vale", "bueno"]}
